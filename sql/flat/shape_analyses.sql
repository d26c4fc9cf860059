-- flat_analyses from the rows of one Parquet table (temp.import_rows, read by sql/import/analyses.sql and
-- whose column types src/ingest/flat-sql.ts checked first): the columns FACT_COLUMNS names, in its
-- order, an absent optional one as null.
CREATE OR REPLACE TEMP TABLE flat_analyses AS
SELECT rn::INTEGER AS rn, "id"::VARCHAR AS "id", "domain_id"::VARCHAR AS "domain_id", "prompt_id"::VARCHAR AS "prompt_id", "channel"::VARCHAR AS "channel", "model"::VARCHAR AS "model", "answered_at"::VARCHAR AS "answered_at", "country"::VARCHAR AS "country", "response"::VARCHAR AS "response"
FROM (
  SELECT NULL::VARCHAR AS "country", NULL::VARCHAR AS "response" WHERE false
  UNION ALL BY NAME
  SELECT * FROM import_rows
)
