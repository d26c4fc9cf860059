-- flat_theme_occurrences_k from the rows of one Parquet table, read by the macro import_theme_occurrences of
-- sql/import/read_theme_occurrences.sql (whose column types src/ingest/flat-sql.ts checked first), in the same pass: the columns of
-- shape_theme_occurrences.sql, each row with its analysis's seq (null: an orphan), as keys_theme_occurrences.sql gives it.
-- Runs where flat_ids is (flat/keys.sql): the connection that reads the files. Parameters: $path VARCHAR.
CREATE OR REPLACE TEMP TABLE flat_theme_occurrences_k AS
SELECT i.seq, c.* FROM (
  SELECT rn::INTEGER AS rn, "analysis_id"::VARCHAR AS "analysis_id", "theme_id"::VARCHAR AS "theme_id", "occurrences"::DOUBLE AS "occurrences"
  FROM import_theme_occurrences($path)
) c LEFT JOIN flat_ids i ON i.id = lower(c.analysis_id)
