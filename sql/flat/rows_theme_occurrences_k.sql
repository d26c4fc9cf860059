-- The rows of flat_theme_occurrences_k (src/parquet.ts copies them from a reading connection to the call's).
SELECT * FROM flat_theme_occurrences_k
