-- The rows of flat_theme_occurrences from the rows of one Parquet table (import_rows: sql/import/theme_occurrences.sql's
-- query, whose column types src/parquet.ts checked first): the columns FACT_COLUMNS names, in its
-- order, an absent optional one as null. src/parquet.ts puts the import query in place of
-- import_rows (one read of the files) and makes flat_theme_occurrences of these rows, or streams them from a
-- reading connection to the call's.
SELECT rn::INTEGER AS rn, "analysis_id"::VARCHAR AS "analysis_id", "theme_id"::VARCHAR AS "theme_id", "occurrences"::DOUBLE AS "occurrences"
FROM import_rows
