-- flat_mentions_k from the rows of one Parquet table, read by the macro import_mentions of
-- sql/import/read_mentions.sql (whose column types src/ingest/flat-sql.ts checked first), in the same pass: the columns of
-- shape_mentions.sql, each row with its analysis's seq (null: an orphan), as keys_mentions.sql gives it.
-- Runs where flat_ids is (flat/keys.sql): the connection that reads the files. Parameters: $path VARCHAR.
CREATE OR REPLACE TEMP TABLE flat_mentions_k AS
SELECT i.seq, c.* FROM (
  SELECT rn::INTEGER AS rn, "analysis_id"::VARCHAR AS "analysis_id", "entity_id"::VARCHAR AS "entity_id", "position"::DOUBLE AS "position", "sentiment"::DOUBLE AS "sentiment"
  FROM (
    SELECT NULL::DOUBLE AS "position", NULL::DOUBLE AS "sentiment" WHERE false
    UNION ALL BY NAME
    SELECT * FROM import_mentions($path)
  )
) c LEFT JOIN flat_ids i ON i.id = lower(c.analysis_id)
