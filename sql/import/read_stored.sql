-- The rows of a Parquet export's flat citations or fanout_queries table, every column as stored
-- (the analysis id as text), as the temp table macro import_stored(path), each numbered (rn, from
-- 1) in file order (import/read_offsets.sql). An export of schema version 1 has no title, page_type
-- and ord in its citations and no fanout_queries: the shapes fill in null. import/citations.sql
-- and import/fanout_queries.sql materialize it (the record path); flat/shape_keyed_citations.sql
-- and flat/shape_keyed_fanout_queries.sql key its rows in the same pass as the read.
CREATE OR REPLACE TEMP MACRO import_stored(path) AS TABLE
  SELECT (f.before + r.file_row_number + 1)::BIGINT AS rn, r.* EXCLUDE (filename, file_row_number)
  FROM (
    SELECT * REPLACE (analysis_id::VARCHAR AS analysis_id)
    FROM read_parquet(path, hive_partitioning = true, filename = true, file_row_number = true)
  ) r JOIN import_offsets(path) f ON f.file_name = r.filename
