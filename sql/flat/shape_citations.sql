-- The rows of flat_citations from the rows of one Parquet table (import_rows: sql/import/citations.sql's
-- query, whose column types src/parquet.ts checked first): the columns FACT_COLUMNS names, in its
-- order, an absent optional one as null. src/parquet.ts puts the import query in place of
-- import_rows (one read of the files) and makes flat_citations of these rows, or streams them from a
-- reading connection to the call's.
SELECT rn::INTEGER AS rn, "analysis_id"::VARCHAR AS "analysis_id", "url"::VARCHAR AS "url", "title"::VARCHAR AS "title", "page_type"::VARCHAR AS "page_type", "ord"::DOUBLE AS "ord"
FROM (
  SELECT NULL::VARCHAR AS "title", NULL::VARCHAR AS "page_type", NULL::DOUBLE AS "ord" WHERE false
  UNION ALL BY NAME
  SELECT * FROM import_rows
)
