-- Ingest step fill_agg_entity_prompt_pos; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: clear_agg_entity_prompt_pos, insert_mentions.
-- Per (domain, day, channel, entity, prompt) the sum and count of the non-null positions (the brand
-- rankings' avg_position); mentions without a position add nothing. Also run by the migration to
-- schema version 2.
INSERT INTO agg_entity_prompt_pos
SELECT m.domain_key, m.day, m.channel, m.entity_idx, m.prompt_idx,
       sum(m.position)::BIGINT, count(m.position)::INTEGER
FROM mentions m
SEMI JOIN stg_affected s ON m.domain_key = s.domain_key AND m.day = s.day
WHERE m.position IS NOT NULL
GROUP BY m.domain_key, m.day, m.channel, m.entity_idx, m.prompt_idx
ORDER BY m.domain_key, m.day, m.channel, m.entity_idx, m.prompt_idx
