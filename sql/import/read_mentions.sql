-- The rows of a Parquet export's flat mentions table, as the temp table macro import_mentions(path),
-- each numbered (rn, from 1) in file order (import/read_offsets.sql). import/mentions.sql materializes
-- it (the record path); flat/shape_keyed_mentions.sql keys its rows in the same pass as the read.
-- Every column cast to the type the checks read.
CREATE OR REPLACE TEMP MACRO import_mentions(path) AS TABLE
  SELECT (f.before + r.file_row_number + 1)::BIGINT AS rn, r.* EXCLUDE (filename, file_row_number)
  FROM (
    SELECT analysis_id::VARCHAR AS analysis_id, entity_id::VARCHAR AS entity_id, position::DOUBLE AS position,
           sentiment::DOUBLE AS sentiment, filename, file_row_number
    FROM read_parquet(path, hive_partitioning = true, filename = true, file_row_number = true)
  ) r JOIN import_offsets(path) f ON f.file_name = r.filename
