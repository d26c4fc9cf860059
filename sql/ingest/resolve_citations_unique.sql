-- Ingest step resolve_citations (variant for distinct
-- analysis ids); phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses, call_texts.
-- A row's key is base + seq: base, the first free analysis_key, is stg_call's (one row).
-- resolve_citations for a call whose analysis ids are all distinct (see insert_mentions_unique).
-- A citation's URL and host are its entry's in stg_citation_dict; their indexes are found together
-- (stg_cited_urls, sql/schema/staging.sql). Joined by the entry's strings per citation: through a
-- DISTINCT of (domain, entry) first, a 500-analysis call took 19 ms against 14.5 and L 0.76-0.87 s
-- against 0.63 (bench/NOTES.md, "s20"). No ORDER BY here: insert_citations sorts once these joins'
-- hash tables are released.
INSERT INTO stg_citation_rows
SELECT (SELECT base FROM stg_call) + c.seq, dm.domain_key, DATE '1970-01-01' + c.day, d.url, d.host, c.ord,
       u.url_idx, u.host_idx, t.idx, p.idx
FROM stg_citations c
JOIN stg_domain_map dm ON dm.h = c.domain_h
JOIN stg_citation_dict d ON d.h = c.entry
JOIN stg_cited_urls u ON u.domain_key = dm.domain_key AND u.cited = d.cited AND u.host = d.host
LEFT JOIN stg_texts t ON t.domain_key = dm.domain_key AND t.kind = 3 AND t.text = c.title
LEFT JOIN stg_texts p ON p.domain_key = dm.domain_key AND p.kind = 4 AND p.text = c.page_type
