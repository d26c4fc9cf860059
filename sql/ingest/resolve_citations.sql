-- Ingest step resolve_citations; phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses, call_texts.
-- The citations of the call's final analyses as they will be stored (stg_citation_rows), with their
-- position in the analysis, their URL as written and host (their entry of stg_citation_dict), and
-- the indexes of their URL identity, host, title and page type in texts (through stg_texts; the
-- URL's and its host's together: stg_cited_urls). No ORDER BY here: insert_citations sorts once
-- these joins' hash tables are released.
INSERT INTO stg_citation_rows
SELECT f.analysis_key, f.domain_key, f.day, d.url, d.host, c.ord, u.url_idx, u.host_idx, t.idx, p.idx
FROM stg_citations c
JOIN stg_final f ON f.seq = c.seq
JOIN stg_citation_dict d ON d.h = c.entry
JOIN stg_cited_urls u ON u.domain_key = f.domain_key AND u.cited = d.cited AND u.host = d.host
LEFT JOIN stg_texts t ON t.domain_key = f.domain_key AND t.kind = 3 AND t.text = c.title
LEFT JOIN stg_texts p ON p.domain_key = f.domain_key AND p.kind = 4 AND p.text = c.page_type
