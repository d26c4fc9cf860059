-- Ingest step fill_agg_channel_day; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: clear_agg_channel_day, insert_analyses.
-- Analyses per (domain, day, channel) of the affected days (the competitor series dates).
INSERT INTO agg_channel_day
SELECT a.domain_key, a.day, a.channel, count(*)::INTEGER
FROM analyses a
SEMI JOIN stg_affected s ON a.domain_key = s.domain_key AND a.day = s.day
GROUP BY a.domain_key, a.day, a.channel
ORDER BY a.domain_key, a.day, a.channel
