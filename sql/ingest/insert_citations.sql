-- Ingest step insert_citations; phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses, delete_old_citations, call_texts.
-- Inserts the citations of the call's final analyses, with their position in the analysis and the
-- indexes of their URL identity, host, title and page type in texts (through stg_texts). Its changed rows are the
-- call's `citations` count.
INSERT INTO citations
SELECT f.analysis_key, f.domain_key, f.day, c.url, c.host, c.ord, u.idx, h.idx, t.idx, p.idx
FROM stg_citations c
JOIN stg_final f ON f.seq = c.seq
JOIN stg_texts u ON u.domain_key = f.domain_key AND u.kind = 1 AND u.text = c.cited
JOIN stg_texts h ON h.domain_key = f.domain_key AND h.kind = 2 AND h.text = c.host
LEFT JOIN stg_texts t ON t.domain_key = f.domain_key AND t.kind = 3 AND t.text = c.title
LEFT JOIN stg_texts p ON p.domain_key = f.domain_key AND p.kind = 4 AND p.text = c.page_type
-- In analysis_key order: the answers listing reads a page's rows by key range, skipping the other
-- row groups (docs/API.md, "GET /api/v1/answers").
ORDER BY 1
