-- Ingest step insert_fanout_queries (variant for distinct
-- analysis ids); phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses, delete_old_fanout_queries, call_texts.
-- A row's key is base + seq: base, the first free analysis_key, is stg_call's (one row).
-- insert_fanout_queries for a call whose analysis ids are all distinct (see insert_mentions_unique).
INSERT INTO fanout_queries
SELECT (SELECT base FROM stg_call) + q.seq, dm.domain_key, DATE '1970-01-01' + q.day, q.ord, t.idx
FROM stg_fanout q
JOIN stg_domain_map dm ON dm.h = q.domain_h
JOIN stg_texts t ON t.domain_key = dm.domain_key AND t.kind = 5 AND t.text = q.query
-- In analysis_key order: the answers listing reads a page's rows by key range, skipping the other
-- row groups (docs/API.md, "GET /api/v1/answers").
ORDER BY 1
