-- Read after the last ingest step, before COMMIT (src/ingest/pipeline.ts, AFFECTED_DOMAINS_QUERY).
-- Parameters: none. Columns: domain_key.
-- Domains whose aggregates the staged call changes (read before COMMIT, to drop cached aggregates).
SELECT DISTINCT domain_key FROM stg_affected ORDER BY domain_key
