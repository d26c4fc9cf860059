-- Ingest step fill_agg_fanout; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: clear_agg_fanout, insert_analyses, insert_fanout_queries.
-- Fan-out aggregates of the affected days, per (day, channel, model, prompt, query): the analyses
-- emitting the query (a query twice in one analysis counts once).
INSERT INTO agg_fanout
SELECT q.domain_key, q.day, a.channel, a.model_key, a.prompt_idx, q.query_idx,
       count(DISTINCT q.analysis_key)::INTEGER AS analyses
FROM fanout_queries q
SEMI JOIN stg_affected s ON q.domain_key = s.domain_key AND q.day = s.day
JOIN analyses a ON a.analysis_key = q.analysis_key
GROUP BY q.domain_key, q.day, a.channel, a.model_key, a.prompt_idx, q.query_idx
ORDER BY q.domain_key, q.day, a.channel, a.model_key, a.prompt_idx, q.query_idx
