-- Ingest step fill_agg_entity_prompts; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: clear_agg_entity_prompts, insert_mentions.
-- Per (domain, day, channel, entity, chunk of 64 prompts) a bitmask of the prompts mentioning the
-- entity (total_queries of the competitor series).
INSERT INTO agg_entity_prompts
SELECT m.domain_key, m.day, m.channel, m.entity_idx, m.prompt_idx // 64 AS chunk,
       bit_or((1::UBIGINT) << (m.prompt_idx % 64)::UBIGINT)
FROM mentions m
SEMI JOIN stg_affected s ON m.domain_key = s.domain_key AND m.day = s.day
GROUP BY m.domain_key, m.day, m.channel, m.entity_idx, chunk
ORDER BY m.domain_key, m.day, m.channel, m.entity_idx, chunk
