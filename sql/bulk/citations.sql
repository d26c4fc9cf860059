-- The empty-target bulk write (src/ingest/flat-bulk.ts): the citations with their texts' indexes,
-- as resolve_citations_unique does. A cited URL's index and its host's are found together: each
-- identity's entry (kind 1, with its host) joined to its host's entry by the host's text, then to
-- the citations by (identity, host). Written so, every join has a text in its key: the temp tables
-- of the call's transaction have no row counts for the planner (every estimate 0), and with the
-- two lookups joined to the citations apart it joined the identities to the hosts on domain_key
-- alone (a cross product: 665k rows for Lq's 23k URLs, 2.1 s of the import).
-- Parameters: none. Runs after bulk/texts.
INSERT INTO citations
WITH urls AS (
  SELECT u.domain_key, u.text AS cited, u.host, u.idx AS url_idx, h.idx AS host_idx
  FROM bulk_texts u
  JOIN bulk_texts h ON h.domain_key = u.domain_key AND h.kind = 2 AND h.text = u.host
  WHERE u.kind = 1
)
SELECT c.analysis_key, c.domain_key, c.day, c.url, c.host, c.ord, x.url_idx, x.host_idx, t.idx, p.idx
FROM bulk_citations c
JOIN urls x ON x.domain_key = c.domain_key AND x.cited = c.cited AND x.host = c.host
LEFT JOIN bulk_texts t ON t.domain_key = c.domain_key AND t.kind = 3 AND t.text = c.title
LEFT JOIN bulk_texts p ON p.domain_key = c.domain_key AND p.kind = 4 AND p.text = c.page_type
ORDER BY c.analysis_key, c.ord
