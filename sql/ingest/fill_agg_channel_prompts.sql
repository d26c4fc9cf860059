-- Ingest step fill_agg_channel_prompts; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: clear_agg_channel_prompts, insert_analyses.
-- Per (domain, day, channel, chunk of 64 prompts) a bitmask of the prompts with an analysis
-- (total_prompts of the brand rankings). Also run by the migration to schema version 2.
INSERT INTO agg_channel_prompts
SELECT a.domain_key, a.day, a.channel, a.prompt_idx // 64 AS chunk,
       bit_or((1::UBIGINT) << (a.prompt_idx % 64)::UBIGINT)
FROM analyses a
SEMI JOIN stg_affected s ON a.domain_key = s.domain_key AND a.day = s.day
GROUP BY a.domain_key, a.day, a.channel, chunk
ORDER BY a.domain_key, a.day, a.channel, chunk
