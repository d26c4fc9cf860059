-- The rows of flat_analyses (src/parquet.ts copies them from a reading connection to the call's).
SELECT * FROM flat_analyses
