-- Ingest step fill_agg_entity_prompt_day; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: clear_agg_entity_prompt_day, insert_mentions.
-- Per (domain, day, channel, entity, prompt) of the affected days: the analyses mentioning the
-- entity (one mention row per analysis and entity) and the sum and count of the non-null
-- positions (the brand rankings). Also run by the migration to schema version 2.
INSERT INTO agg_entity_prompt_day
SELECT m.domain_key, m.day, m.channel, m.entity_idx, m.prompt_idx, count(*)::INTEGER,
       coalesce(sum(m.position), 0)::BIGINT, count(m.position)::INTEGER
FROM mentions m
SEMI JOIN stg_affected s ON m.domain_key = s.domain_key AND m.day = s.day
GROUP BY m.domain_key, m.day, m.channel, m.entity_idx, m.prompt_idx
ORDER BY m.domain_key, m.day, m.channel, m.entity_idx, m.prompt_idx
