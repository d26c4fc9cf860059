-- Stages the fact tables of a checked flat import (src/ingest/flat-sql.ts) as the record path
-- would: one analysis per analyses row (seq: its 0-based row), its mentions, citations, theme
-- occurrences and fan-out queries in table order (citations and fan-out queries by `ord` first,
-- then table order; their position in that order is the staged ord), ids in lower case, fan-out
-- queries trimmed. Handles come from the h_* tables, each cited URL's host and identity from
-- flat_urls. Runs after stage_analyses.sql (the facts join the staged analyses).
INSERT INTO stg_fanout
SELECT a.seq,
       (row_number() OVER (PARTITION BY a.seq ORDER BY coalesce(f.ord::DOUBLE, 'infinity'::DOUBLE), f.rn) - 1)::INTEGER,
       js_trim(f.query), a.domain_h, a.day
FROM flat_fanout_queries_k f
JOIN stg_analyses a ON a.seq = f.seq
ORDER BY a.seq, 2
