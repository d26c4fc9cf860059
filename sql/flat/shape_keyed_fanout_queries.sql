-- flat_fanout_queries_k from the rows of one Parquet table, read by the macro import_stored of
-- sql/import/read_stored.sql (whose column types src/ingest/flat-sql.ts checked first), in the same pass: the columns of
-- shape_fanout_queries.sql, each row with its analysis's seq (null: an orphan), as keys_fanout_queries.sql gives it.
-- Runs where flat_ids is (flat/keys.sql): the connection that reads the files. Parameters: $path VARCHAR.
CREATE OR REPLACE TEMP TABLE flat_fanout_queries_k AS
SELECT i.seq, c.* FROM (
  SELECT rn::INTEGER AS rn, "analysis_id"::VARCHAR AS "analysis_id", "query"::VARCHAR AS "query", "ord"::DOUBLE AS "ord"
  FROM (
    SELECT NULL::DOUBLE AS "ord" WHERE false
    UNION ALL BY NAME
    SELECT * FROM import_stored($path)
  )
) c LEFT JOIN flat_ids i ON i.id = lower(c.analysis_id)
