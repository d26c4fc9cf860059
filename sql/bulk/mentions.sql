-- The empty-target bulk write (src/ingest/flat-bulk.ts): the mentions, keyed by their analysis's
-- row (flat_mentions_k.seq), as stage_mentions and insert_mentions_unique do (the brand is entity
-- handle 0). Parameters: none. Runs after bulk/analyses.
INSERT INTO mentions
SELECT a.analysis_key, a.domain_key, a.day, a.channel, a.prompt_idx, em.entity_idx, m.position::INTEGER,
       m.sentiment
FROM flat_mentions_k m
JOIN bulk_analyses a ON a.seq = m.seq
LEFT JOIN h_entity e ON e.id = lower(m.entity_id)
JOIN stg_entity_map em ON em.h = CASE WHEN m.entity_id = 'brand' THEN 0 ELSE e.h END
ORDER BY a.analysis_key, m.rn
