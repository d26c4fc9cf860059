-- The rows of flat_fanout_queries_k (src/parquet.ts copies them from a reading connection to the call's).
SELECT * FROM flat_fanout_queries_k
