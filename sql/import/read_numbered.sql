-- The rows of one table of a Parquet export, every column as stored, each numbered (rn, from 1) in
-- file order, as the temp table macro import_numbered(path): a row's number is its place in its
-- file plus the rows of the files before it (parquet_file_metadata; the files by name, as
-- read_parquet reads a glob), not a window over the rows, so a read runs on every thread. The reads
-- of the child fact tables (import/read_*.sql) select from it; src/parquet.ts runs the read_* files
-- on the reading connection first.
CREATE OR REPLACE TEMP MACRO import_numbered(path) AS TABLE
  WITH offsets AS (
    SELECT file_name,
           coalesce(sum(num_rows) OVER (ORDER BY file_name ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
             AS before
    FROM parquet_file_metadata(path)
  )
  SELECT (f.before + r.file_row_number + 1)::BIGINT AS rn, r.* EXCLUDE (filename, file_row_number)
  FROM read_parquet(path, hive_partitioning = true, filename = true, file_row_number = true) r
  JOIN offsets f ON f.file_name = r.filename
