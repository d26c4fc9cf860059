-- Ingest step insert_citations (variant for distinct
-- analysis ids); phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses, delete_old_citations, call_texts.
-- A row's key is base + seq: base, the first free analysis_key, is stg_call's (one row).
-- insert_citations for a call whose analysis ids are all distinct (see insert_mentions_unique).
-- A cited URL's index and its host's are found together: the call's (URL, host) pairs are joined
-- to their host entries first (stg_texts, a few rows per distinct URL), so each citation is probed
-- once for both instead of twice (with the two lookups apart, DuckDB built its hash table on the
-- call's citations and probed it with the texts: 17 s of the 56 s staging an L file took).
INSERT INTO citations
WITH urls AS (
  SELECT u.domain_key, u.text AS cited, u.host, u.idx AS url_idx, h.idx AS host_idx
  FROM stg_texts u
  JOIN stg_texts h ON h.domain_key = u.domain_key AND h.kind = 2 AND h.text = u.host
  WHERE u.kind = 1
)
SELECT (SELECT base FROM stg_call) + c.seq, dm.domain_key, DATE '1970-01-01' + c.day, c.url, c.host, c.ord, u.url_idx, u.host_idx,
       t.idx, p.idx
FROM stg_citations c
JOIN stg_domain_map dm ON dm.h = c.domain_h
JOIN urls u ON u.domain_key = dm.domain_key AND u.cited = c.cited AND u.host = c.host
LEFT JOIN stg_texts t ON t.domain_key = dm.domain_key AND t.kind = 3 AND t.text = c.title
LEFT JOIN stg_texts p ON p.domain_key = dm.domain_key AND p.kind = 4 AND p.text = c.page_type
-- In analysis_key order: the answers listing reads a page's rows by key range, skipping the other
-- row groups (docs/API.md, "GET /api/v1/answers").
ORDER BY 1
