-- Stages the fact tables of a checked flat import (src/ingest/flat-sql.ts) as the record path
-- would: one analysis per analyses row (seq: its 0-based row), its mentions, citations, theme
-- occurrences and fan-out queries in table order (citations and fan-out queries by `ord` first,
-- then table order; their position in that order is the staged ord), ids in lower case, fan-out
-- queries trimmed. Handles come from the h_* tables, each cited URL's host and identity from
-- flat_urls. Runs after stage_analyses.sql (the facts join the staged analyses).
INSERT INTO stg_theme_occ
SELECT a.seq, h.h, t.occurrences::INTEGER, a.domain_h, a.channel, a.model_h, a.day
FROM flat_theme_occurrences_k t
JOIN stg_analyses a ON a.seq = t.seq
JOIN h_theme h ON h.id = lower(t.theme_id)
ORDER BY a.seq, t.rn
