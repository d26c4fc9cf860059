-- The rows of a Parquet export's flat citations or fanout_queries table, numbered
-- (import/read_numbered.sql), every column as stored but the analysis id as text, as the temp table
-- macro import_stored(path). An export of schema version 1 has no title, page_type and ord in its
-- citations and no fanout_queries: the shapes fill in null. import/citations.sql and
-- import/fanout_queries.sql materialize it (the record path); flat/shape_keyed_citations.sql and
-- flat/shape_keyed_fanout_queries.sql key its rows in the same pass as the read.
CREATE OR REPLACE TEMP MACRO import_stored(path) AS TABLE
  SELECT * REPLACE (analysis_id::VARCHAR AS analysis_id) FROM import_numbered(path)
