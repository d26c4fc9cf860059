-- Each cited URL of a domain (texts of kind 1) and the index of its host (kind 2; -1 when none).
-- Read by src/tables/cited-index.ts; every column INTEGER NOT NULL. Parameters: $domain_key INTEGER.
SELECT t.idx, coalesce(h.idx, -1) AS host_idx
FROM texts t
LEFT JOIN texts h ON h.domain_key = t.domain_key AND h.kind = 2 AND h.text = t.host
WHERE t.domain_key = $domain_key AND t.kind = 1
