-- Ingest step insert_mentions (variant for distinct
-- analysis ids); phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses, delete_old_mentions.
-- A row's key is base + seq: base, the first free analysis_key, is stg_call's (one row).
-- insert_mentions for a call whose analysis ids are all distinct: every staged mention is kept
-- and carries its analysis's handles, so only the small handle maps are joined.
INSERT INTO mentions
SELECT (SELECT base FROM stg_call) + m.seq, dm.domain_key, DATE '1970-01-01' + m.day, m.channel, pm.prompt_idx, em.entity_idx,
       m.position, m.sentiment
FROM stg_mentions m
JOIN stg_domain_map dm ON dm.h = m.domain_h
JOIN stg_prompt_map pm ON pm.h = m.prompt_h
JOIN stg_entity_map em ON em.h = m.entity_h
-- In analysis_key order: the answers listing reads a page's rows by key range, skipping the other
-- row groups (docs/API.md, "GET /api/v1/answers").
ORDER BY 1
