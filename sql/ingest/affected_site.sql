-- Ingest step affected_site; phase resolve (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: the staging tables and handle maps (IngestCall.stage).
-- Every day of a domain whose website (and so its citation matching) changes.
INSERT INTO stg_affected
SELECT DISTINCT c.domain_key, c.day
FROM agg_channel_day c
JOIN domains d ON d.domain_key = c.domain_key
JOIN stg_domains s ON s.domain_key = c.domain_key
WHERE s.site_host IS DISTINCT FROM d.site_host
