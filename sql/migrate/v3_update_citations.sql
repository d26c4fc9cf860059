-- Migration to schema version 3 (src/db/migrate.ts): the citations stored by an older version get their
-- position in the analysis (in the order they were stored) and the indexes of their URL identity
-- and host in texts. Parameters: none.
UPDATE citations SET ord = x.ord, url_idx = x.url_idx, host_idx = x.host_idx
FROM (
  SELECT c.rowid AS row_id,
         (row_number() OVER (PARTITION BY c.analysis_key ORDER BY c.rowid) - 1)::INTEGER AS ord,
         u.idx AS url_idx, h.idx AS host_idx
  FROM citations c
  JOIN mig_cited_urls m ON m.url = c.url
  JOIN texts u ON u.domain_key = c.domain_key AND u.kind = 1 AND u.text = m.cited
  JOIN texts h ON h.domain_key = c.domain_key AND h.kind = 2 AND h.text = c.host
  WHERE c.url_idx IS NULL
) x
WHERE citations.rowid = x.row_id
