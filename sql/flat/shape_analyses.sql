-- The rows of flat_analyses from the rows of one Parquet table (import_rows: sql/import/analyses.sql's
-- query, whose column types src/parquet.ts checked first): the columns FACT_COLUMNS names, in its
-- order, an absent optional one as null. src/parquet.ts puts the import query in place of
-- import_rows (one read of the files) and makes flat_analyses of these rows, or streams them from a
-- reading connection to the call's.
SELECT rn::INTEGER AS rn, "id"::VARCHAR AS "id", "domain_id"::VARCHAR AS "domain_id", "prompt_id"::VARCHAR AS "prompt_id", "channel"::VARCHAR AS "channel", "model"::VARCHAR AS "model", "answered_at"::VARCHAR AS "answered_at", "country"::VARCHAR AS "country", "response"::VARCHAR AS "response"
FROM (
  SELECT NULL::VARCHAR AS "country", NULL::VARCHAR AS "response" WHERE false
  UNION ALL BY NAME
  SELECT * FROM import_rows
)
