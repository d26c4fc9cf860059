-- Ingest step insert_fanout_queries; phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses, delete_old_fanout_queries, call_texts.
-- Inserts the fan-out queries of the call's final analyses (trimmed, in their order). Its changed
-- rows are the call's `fanout_queries` count.
INSERT INTO fanout_queries
SELECT f.analysis_key, f.domain_key, f.day, q.ord, t.idx
FROM stg_fanout q
JOIN stg_final f ON f.seq = q.seq
JOIN stg_texts t ON t.domain_key = f.domain_key AND t.kind = 5 AND t.text = q.query
-- In analysis_key order: the answers listing reads a page's rows by key range, skipping the other
-- row groups (docs/API.md, "GET /api/v1/answers").
ORDER BY 1
