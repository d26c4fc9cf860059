-- Stages the fact tables of a checked flat import (src/ingest/flat-sql.ts) as the record path
-- would: one analysis per analyses row (seq: its 0-based row), its mentions, citations, theme
-- occurrences and fan-out queries in table order (citations and fan-out queries by `ord` first,
-- then table order; their position in that order is the staged ord), ids in lower case, fan-out
-- queries trimmed. Handles come from the h_* tables, each cited URL's host and identity from
-- flat_urls. Runs after stage_analyses.sql (the facts join the staged analyses).
INSERT INTO stg_mentions
SELECT a.seq, CASE WHEN m.entity_id = 'brand' THEN 0 ELSE e.h END, m.position::INTEGER, m.sentiment,
       a.domain_h, a.prompt_h, a.channel, a.day
FROM flat_mentions_k m
JOIN stg_analyses a ON a.seq = m.seq
LEFT JOIN h_entity e ON e.id = lower(m.entity_id)
ORDER BY a.seq, m.rn
