-- The rows of a Parquet export's flat theme_occurrences table, as the temp table macro import_theme_occurrences(path),
-- each numbered (rn, from 1) in file order (import/read_offsets.sql). import/theme_occurrences.sql materializes
-- it (the record path); flat/shape_keyed_theme_occurrences.sql keys its rows in the same pass as the read.
-- Every column cast to the type the checks read.
CREATE OR REPLACE TEMP MACRO import_theme_occurrences(path) AS TABLE
  SELECT (f.before + r.file_row_number + 1)::BIGINT AS rn, r.* EXCLUDE (filename, file_row_number)
  FROM (
    SELECT analysis_id::VARCHAR AS analysis_id, theme_id::VARCHAR AS theme_id, occurrences::DOUBLE AS occurrences,
           filename, file_row_number
    FROM read_parquet(path, hive_partitioning = true, filename = true, file_row_number = true)
  ) r JOIN import_offsets(path) f ON f.file_name = r.filename
