-- Read before the ingest steps (src/ingest/call.ts, DISTINCT_IDS_QUERY). Parameters: none.
-- Columns: unique (BOOLEAN): no two staged analyses share an id, so the steps' `unique` variants
-- (no de-duplication join) apply.
SELECT count(DISTINCT id) = count(*) AS "unique" FROM stg_analyses
