-- flat_citations_k from the rows of one Parquet table, read by the macro import_stored of
-- sql/import/read_stored.sql (whose column types src/ingest/flat-sql.ts checked first), in the same pass: the columns of
-- shape_citations.sql, each row with its analysis's seq (null: an orphan), as keys_citations.sql gives it.
-- Runs where flat_ids is (flat/keys.sql): the connection that reads the files. Parameters: $path VARCHAR.
CREATE OR REPLACE TEMP TABLE flat_citations_k AS
SELECT i.seq, c.* FROM (
  SELECT rn::INTEGER AS rn, "analysis_id"::VARCHAR AS "analysis_id", "url"::VARCHAR AS "url", "title"::VARCHAR AS "title", "page_type"::VARCHAR AS "page_type", "ord"::DOUBLE AS "ord"
  FROM (
    SELECT NULL::VARCHAR AS "title", NULL::VARCHAR AS "page_type", NULL::DOUBLE AS "ord" WHERE false
    UNION ALL BY NAME
    SELECT * FROM import_stored($path)
  )
) c LEFT JOIN flat_ids i ON i.id = lower(c.analysis_id)
