-- The rows of flat_ids (src/parquet.ts copies them from a reading connection to the call's).
SELECT * FROM flat_ids
