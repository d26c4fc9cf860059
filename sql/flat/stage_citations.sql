-- Stages the fact tables of a checked flat import (src/ingest/flat-sql.ts) as the record path
-- would: one analysis per analyses row (seq: its 0-based row), its mentions, citations, theme
-- occurrences and fan-out queries in table order (citations and fan-out queries by `ord` first,
-- then table order; their position in that order is the staged ord), ids in lower case, fan-out
-- queries trimmed. Handles come from the h_* tables, each cited URL's number from the citation
-- dictionary (stage_citation_dict.sql). Runs after stage_analyses.sql (the facts join the staged
-- analyses).
INSERT INTO stg_citations
SELECT a.seq, d.h, a.domain_h, a.day,
       (row_number() OVER (PARTITION BY a.seq ORDER BY coalesce(c.ord::DOUBLE, 'infinity'::DOUBLE), c.rn) - 1)::INTEGER,
       c.title, c.page_type
FROM flat_citations_k c
JOIN stg_analyses a ON a.seq = c.seq
JOIN stg_citation_dict d ON d.url = c.url
ORDER BY a.seq, 5
