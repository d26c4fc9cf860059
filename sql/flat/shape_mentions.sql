-- flat_mentions from the rows of one Parquet table (temp.import_rows, read by sql/import/mentions.sql and
-- whose column types src/ingest/flat-sql.ts checked first): the columns FACT_COLUMNS names, in its
-- order, an absent optional one as null.
CREATE OR REPLACE TEMP TABLE flat_mentions AS
SELECT rn::INTEGER AS rn, "analysis_id"::VARCHAR AS "analysis_id", "entity_id"::VARCHAR AS "entity_id", "position"::DOUBLE AS "position", "sentiment"::DOUBLE AS "sentiment"
FROM (
  SELECT NULL::DOUBLE AS "position", NULL::DOUBLE AS "sentiment" WHERE false
  UNION ALL BY NAME
  SELECT * FROM import_rows
)
