-- The rows of a Parquet export's flat mentions table, numbered (import/read_numbered.sql), as the
-- temp table macro import_mentions(path). import/mentions.sql materializes it (the record path);
-- flat/shape_keyed_mentions.sql keys its rows in the same pass as the read. Every column cast to
-- the type the checks read.
CREATE OR REPLACE TEMP MACRO import_mentions(path) AS TABLE
  SELECT rn, analysis_id::VARCHAR AS analysis_id, entity_id::VARCHAR AS entity_id, position::DOUBLE AS position,
         sentiment::DOUBLE AS sentiment
  FROM import_numbered(path)
