-- The rows of flat_mentions_k (src/parquet.ts copies them from a reading connection to the call's).
SELECT * FROM flat_mentions_k
