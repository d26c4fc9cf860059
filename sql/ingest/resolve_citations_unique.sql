-- Ingest step resolve_citations (variant for distinct
-- analysis ids); phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses, call_texts.
-- A row's key is base + seq: base, the first free analysis_key, is stg_call's (one row).
-- resolve_citations for a call whose analysis ids are all distinct (see insert_mentions_unique).
-- A citation's URL with its identity's and host's indexes: its entry in stg_citation_entries
-- (sql/schema/staging.sql). No ORDER BY here: insert_citations sorts once these joins' hash tables
-- are released.
INSERT INTO stg_citation_rows
SELECT (SELECT base FROM stg_call) + c.seq, dm.domain_key, DATE '1970-01-01' + c.day, e.url, e.host, c.ord,
       e.url_idx, e.host_idx, t.idx, p.idx
FROM stg_citations c
JOIN stg_domain_map dm ON dm.h = c.domain_h
JOIN stg_citation_entries e ON e.domain_h = c.domain_h AND e.entry = c.entry
LEFT JOIN stg_texts t ON t.domain_key = dm.domain_key AND t.kind = 3 AND t.text = c.title
LEFT JOIN stg_texts p ON p.domain_key = dm.domain_key AND p.kind = 4 AND p.text = c.page_type
