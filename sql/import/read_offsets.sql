-- The first row number of each file of a Parquet export's table, as the temp table macro
-- import_offsets(path): the rows of the files before it, the files by name (as read_parquet reads
-- a glob). The reads of the child fact tables (import/read_*.sql) number their rows with it
-- (rn, from 1, in file order), not with a window over the rows, so a read runs on every thread.
-- src/parquet.ts runs the read_* files on the reading connection first.
CREATE OR REPLACE TEMP MACRO import_offsets(path) AS TABLE
  SELECT file_name,
         coalesce(sum(num_rows) OVER (ORDER BY file_name ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::BIGINT
           AS before
  FROM parquet_file_metadata(path)
