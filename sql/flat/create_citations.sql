-- An empty flat_citations of a flat import (src/ingest/flat-sql.ts): rn (the row's 1-based number
-- in table order), then the columns the checks and the staging read (FACT_COLUMNS).
CREATE OR REPLACE TEMP TABLE flat_citations (rn INTEGER, "analysis_id" VARCHAR, "url" VARCHAR, "title" VARCHAR, "page_type" VARCHAR, "ord" DOUBLE)
