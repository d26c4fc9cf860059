-- Ingest step resolve_citations; phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses, call_texts.
-- The citations of the call's final analyses as they will be stored (stg_citation_rows), with their
-- position in the analysis, their URL as written and host, and the indexes of their URL identity,
-- host (its URL's entry: stg_citation_entries, sql/schema/staging.sql), title and page type in
-- texts (through stg_texts). No ORDER BY here: insert_citations sorts once these joins' hash
-- tables are released.
INSERT INTO stg_citation_rows
SELECT f.analysis_key, f.domain_key, f.day, e.url, e.host, c.ord, e.url_idx, e.host_idx, t.idx, p.idx
FROM stg_citations c
JOIN stg_final f ON f.seq = c.seq
JOIN stg_citation_entries e ON e.domain_h = c.domain_h AND e.entry = c.entry
LEFT JOIN stg_texts t ON t.domain_key = f.domain_key AND t.kind = 3 AND t.text = c.title
LEFT JOIN stg_texts p ON p.domain_key = f.domain_key AND p.kind = 4 AND p.text = c.page_type
