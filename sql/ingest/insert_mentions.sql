-- Ingest step insert_mentions; phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses, delete_old_mentions.
-- Inserts the mentions of the call's final analyses. Its changed rows are the call's `mentions`
-- count.
INSERT INTO mentions
SELECT f.analysis_key, f.domain_key, f.day, f.channel, f.prompt_idx, em.entity_idx, m.position, m.sentiment
FROM stg_mentions m
JOIN stg_final f ON f.seq = m.seq
JOIN stg_entity_map em ON em.h = m.entity_h
-- In analysis_key order: the answers listing reads a page's rows by key range, skipping the other
-- row groups (docs/API.md, "GET /api/v1/answers").
ORDER BY 1
