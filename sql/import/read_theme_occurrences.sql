-- The rows of a Parquet export's flat theme_occurrences table, numbered (import/read_numbered.sql),
-- as the temp table macro import_theme_occurrences(path). import/theme_occurrences.sql materializes
-- it (the record path); flat/shape_keyed_theme_occurrences.sql keys its rows in the same pass as
-- the read. Every column cast to the type the checks read.
CREATE OR REPLACE TEMP MACRO import_theme_occurrences(path) AS TABLE
  SELECT rn, analysis_id::VARCHAR AS analysis_id, theme_id::VARCHAR AS theme_id, occurrences::DOUBLE AS occurrences
  FROM import_numbered(path)
