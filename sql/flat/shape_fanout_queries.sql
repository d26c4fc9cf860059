-- The rows of flat_fanout_queries from the rows of one Parquet table (import_rows: sql/import/fanout_queries.sql's
-- query, whose column types src/parquet.ts checked first): the columns FACT_COLUMNS names, in its
-- order, an absent optional one as null. src/parquet.ts puts the import query in place of
-- import_rows (one read of the files) and makes flat_fanout_queries of these rows, or streams them from a
-- reading connection to the call's.
SELECT rn::INTEGER AS rn, "analysis_id"::VARCHAR AS "analysis_id", "query"::VARCHAR AS "query", "ord"::DOUBLE AS "ord"
FROM (
  SELECT NULL::DOUBLE AS "ord" WHERE false
  UNION ALL BY NAME
  SELECT * FROM import_rows
)
