-- Stages the fact tables of a checked flat import (src/ingest/flat-sql.ts) as the record path
-- would: one analysis per analyses row (seq: its 0-based row), its mentions, citations, theme
-- occurrences and fan-out queries in table order (citations and fan-out queries by `ord` first,
-- then table order; their position in that order is the staged ord), ids in lower case, fan-out
-- queries trimmed. Handles come from the h_* tables, each cited URL's host and identity from
-- flat_urls. Runs after stage_analyses.sql (the facts join the staged analyses).
INSERT INTO stg_mentions
SELECT a.seq, CASE WHEN m.entity_id = 'brand' THEN 0 ELSE e.h END, m.position::INTEGER, m.sentiment,
       a.domain_h, a.prompt_h, a.channel, a.day
FROM flat_mentions m
JOIN stg_analyses a ON a.seq = m.seq
LEFT JOIN h_entity e ON e.id = lower(m.entity_id)
ORDER BY a.seq, m.rn;
INSERT INTO stg_citations
SELECT a.seq, c.url, u.host, a.domain_h, a.day,
       (row_number() OVER (PARTITION BY a.seq ORDER BY coalesce(c.ord::DOUBLE, 'infinity'::DOUBLE), c.rn) - 1)::INTEGER,
       u.cited, c.title, c.page_type
FROM flat_citations c
JOIN stg_analyses a ON a.seq = c.seq
JOIN flat_urls u ON u.url = c.url
ORDER BY a.seq, 6;
INSERT INTO stg_theme_occ
SELECT a.seq, h.h, t.occurrences::INTEGER, a.domain_h, a.channel, a.model_h, a.day
FROM flat_theme_occurrences t
JOIN stg_analyses a ON a.seq = t.seq
JOIN h_theme h ON h.id = lower(t.theme_id)
ORDER BY a.seq, t.rn;
INSERT INTO stg_fanout
SELECT a.seq,
       (row_number() OVER (PARTITION BY a.seq ORDER BY coalesce(f.ord::DOUBLE, 'infinity'::DOUBLE), f.rn) - 1)::INTEGER,
       js_trim(f.query), a.domain_h, a.day
FROM flat_fanout_queries f
JOIN stg_analyses a ON a.seq = f.seq
ORDER BY a.seq, 2;
