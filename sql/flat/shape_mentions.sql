-- The rows of flat_mentions from the rows of one Parquet table (import_rows: sql/import/mentions.sql's
-- query, whose column types src/parquet.ts checked first): the columns FACT_COLUMNS names, in its
-- order, an absent optional one as null. src/parquet.ts puts the import query in place of
-- import_rows (one read of the files) and makes flat_mentions of these rows, or streams them from a
-- reading connection to the call's.
SELECT rn::INTEGER AS rn, "analysis_id"::VARCHAR AS "analysis_id", "entity_id"::VARCHAR AS "entity_id", "position"::DOUBLE AS "position", "sentiment"::DOUBLE AS "sentiment"
FROM (
  SELECT NULL::DOUBLE AS "position", NULL::DOUBLE AS "sentiment" WHERE false
  UNION ALL BY NAME
  SELECT * FROM import_rows
)
