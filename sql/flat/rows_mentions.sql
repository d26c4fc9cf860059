-- The rows of flat_mentions (src/parquet.ts copies them from a reading connection to the call's).
SELECT * FROM flat_mentions
