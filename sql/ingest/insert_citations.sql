-- Ingest step insert_citations; phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses, delete_old_citations, call_texts.
-- Inserts the citations of the call's final analyses, with their position in the analysis and the
-- indexes of their URL identity, host, title and page type in texts (through stg_texts). Its changed rows are the
-- call's `citations` count.
-- The URL's and its host's indexes found together (see insert_citations_unique.sql).
INSERT INTO citations
WITH urls AS (
  SELECT u.domain_key, u.text AS cited, u.host, u.idx AS url_idx, h.idx AS host_idx
  FROM stg_texts u
  JOIN stg_texts h ON h.domain_key = u.domain_key AND h.kind = 2 AND h.text = u.host
  WHERE u.kind = 1
)
SELECT f.analysis_key, f.domain_key, f.day, c.url, c.host, c.ord, u.url_idx, u.host_idx, t.idx, p.idx
FROM stg_citations c
JOIN stg_final f ON f.seq = c.seq
JOIN urls u ON u.domain_key = f.domain_key AND u.cited = c.cited AND u.host = c.host
LEFT JOIN stg_texts t ON t.domain_key = f.domain_key AND t.kind = 3 AND t.text = c.title
LEFT JOIN stg_texts p ON p.domain_key = f.domain_key AND p.kind = 4 AND p.text = c.page_type
-- In analysis_key order: the answers listing reads a page's rows by key range, skipping the other
-- row groups (docs/API.md, "GET /api/v1/answers").
ORDER BY 1
