-- Read after the last ingest step, before COMMIT (src/ingest/pipeline.ts, AFFECTED_DOMAINS_QUERY).
-- Parameters: none. Columns: domain_key, from_day, to_day (days since 1970-01-01).
-- Domains whose aggregates the staged call changes, with the range of their changed days (read
-- before COMMIT, so the aggregate store reloads those days of the domains it keeps).
SELECT domain_key, from_day, to_day FROM stg_affected_domains ORDER BY domain_key
