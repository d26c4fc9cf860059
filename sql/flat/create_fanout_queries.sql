-- An empty flat_fanout_queries of a flat import (src/ingest/flat-sql.ts): rn (the row's 1-based number
-- in table order), then the columns the checks and the staging read (FACT_COLUMNS).
CREATE OR REPLACE TEMP TABLE flat_fanout_queries (rn INTEGER, "analysis_id" VARCHAR, "query" VARCHAR, "ord" DOUBLE)
