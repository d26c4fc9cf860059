-- An empty flat_theme_occurrences of a flat import (src/ingest/flat-sql.ts): rn (the row's 1-based number
-- in table order), then the columns the checks and the staging read (FACT_COLUMNS).
CREATE OR REPLACE TEMP TABLE flat_theme_occurrences (rn INTEGER, "analysis_id" VARCHAR, "theme_id" VARCHAR, "occurrences" DOUBLE)
