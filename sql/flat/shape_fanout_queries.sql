-- flat_fanout_queries from the rows of one Parquet table (temp.import_rows, read by sql/import/fanout_queries.sql and
-- whose column types src/ingest/flat-sql.ts checked first): the columns FACT_COLUMNS names, in its
-- order, an absent optional one as null.
CREATE OR REPLACE TEMP TABLE flat_fanout_queries AS
SELECT rn::INTEGER AS rn, "analysis_id"::VARCHAR AS "analysis_id", "query"::VARCHAR AS "query", "ord"::DOUBLE AS "ord"
FROM (
  SELECT NULL::DOUBLE AS "ord" WHERE false
  UNION ALL BY NAME
  SELECT * FROM import_rows
)
