-- Stages the fact tables of a checked flat import (src/ingest/flat-sql.ts) as the record path
-- would: one analysis per analyses row (seq: its 0-based row), its mentions, citations, theme
-- occurrences and fan-out queries in table order (citations and fan-out queries by `ord` first,
-- then table order; their position in that order is the staged ord), ids in lower case, fan-out
-- queries trimmed. Handles come from the h_* tables, each cited URL's host and identity from
-- flat_urls. Runs after stage_analyses.sql (the facts join the staged analyses).
-- The position of each row in its analysis comes from a window over three narrow columns, joined
-- back by rn (as in stage_citations.sql).
INSERT INTO stg_fanout
WITH o AS (
  SELECT rn, (row_number() OVER (PARTITION BY seq ORDER BY coalesce(ord::DOUBLE, 'infinity'::DOUBLE), rn) - 1)::INTEGER AS ord
  FROM flat_fanout_queries_k
)
SELECT a.seq, o.ord, js_trim(f.query), a.domain_h, a.day
FROM flat_fanout_queries_k f
JOIN o ON o.rn = f.rn
JOIN stg_analyses a ON a.seq = f.seq
ORDER BY a.seq, o.ord
