-- flat_theme_occurrences from the rows of one Parquet table (temp.import_rows, read by sql/import/theme_occurrences.sql and
-- whose column types src/ingest/flat-sql.ts checked first): the columns FACT_COLUMNS names, in its
-- order, an absent optional one as null.
CREATE OR REPLACE TEMP TABLE flat_theme_occurrences AS
SELECT rn::INTEGER AS rn, "analysis_id"::VARCHAR AS "analysis_id", "theme_id"::VARCHAR AS "theme_id", "occurrences"::DOUBLE AS "occurrences"
FROM import_rows
