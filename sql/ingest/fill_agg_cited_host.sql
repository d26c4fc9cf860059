-- Ingest step fill_agg_cited_host; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: clear_agg_cited_host, insert_analyses, insert_citations.
-- Cited-domains aggregates of the affected days, per (day, channel, model, cited host): entries
-- and citing analyses.
INSERT INTO agg_cited_host
SELECT c.domain_key, c.day, a.channel, a.model_key, c.host_idx,
       count(*)::INTEGER AS entries, count(DISTINCT c.analysis_key)::INTEGER AS analyses
FROM citations c
SEMI JOIN stg_affected s ON c.domain_key = s.domain_key AND c.day = s.day
JOIN analyses a ON a.analysis_key = c.analysis_key
GROUP BY c.domain_key, c.day, a.channel, a.model_key, c.host_idx
ORDER BY c.domain_key, c.day, a.channel, a.model_key, c.host_idx
