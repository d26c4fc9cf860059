-- An empty flat_analyses of a flat import (src/ingest/flat-sql.ts): rn (the row's 1-based number
-- in table order), then the columns the checks and the staging read (FACT_COLUMNS).
CREATE OR REPLACE TEMP TABLE flat_analyses (rn INTEGER, "id" VARCHAR, "domain_id" VARCHAR, "prompt_id" VARCHAR, "channel" VARCHAR, "model" VARCHAR, "answered_at" VARCHAR, "country" VARCHAR, "response" VARCHAR)
