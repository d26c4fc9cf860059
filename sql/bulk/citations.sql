-- The empty-target bulk write (src/ingest/flat-bulk.ts): the citations with their texts' indexes,
-- as resolve_citations_unique does. Each distinct URL's two indexes (its identity, its host) are
-- looked up once, then joined by the URL. Parameters: none. Runs after bulk/texts.
INSERT INTO citations
WITH urls AS (
  SELECT c.domain_key, c.url, u.idx AS url_idx, h.idx AS host_idx
  FROM (SELECT DISTINCT domain_key, url, cited, host FROM bulk_citations) c
  JOIN bulk_texts u ON u.domain_key = c.domain_key AND u.kind = 1 AND u.text = c.cited
  JOIN bulk_texts h ON h.domain_key = c.domain_key AND h.kind = 2 AND h.text = c.host
)
SELECT c.analysis_key, c.domain_key, c.day, c.url, c.host, c.ord, x.url_idx, x.host_idx, t.idx, p.idx
FROM bulk_citations c
JOIN urls x ON x.domain_key = c.domain_key AND x.url = c.url
LEFT JOIN bulk_texts t ON t.domain_key = c.domain_key AND t.kind = 3 AND t.text = c.title
LEFT JOIN bulk_texts p ON p.domain_key = c.domain_key AND p.kind = 4 AND p.text = c.page_type
ORDER BY c.analysis_key, c.ord
