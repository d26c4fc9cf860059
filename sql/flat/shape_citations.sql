-- flat_citations from the rows of one Parquet table (temp.import_rows, read by sql/import/citations.sql and
-- whose column types src/ingest/flat-sql.ts checked first): the columns FACT_COLUMNS names, in its
-- order, an absent optional one as null.
CREATE OR REPLACE TEMP TABLE flat_citations AS
SELECT rn::INTEGER AS rn, "analysis_id"::VARCHAR AS "analysis_id", "url"::VARCHAR AS "url", "title"::VARCHAR AS "title", "page_type"::VARCHAR AS "page_type", "ord"::DOUBLE AS "ord"
FROM (
  SELECT NULL::VARCHAR AS "title", NULL::VARCHAR AS "page_type", NULL::DOUBLE AS "ord" WHERE false
  UNION ALL BY NAME
  SELECT * FROM import_rows
)
