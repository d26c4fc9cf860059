-- One domain's citation entries as GET /api/v1/query reads them, one row per (analysis, host) by
-- (analysis ordinal, host): the ordinal of ordered_analyses.sql (the analyses that pass the segment
-- filters), the index of the host in hosts.sql's list and the analysis's entries of that host.
-- Read by src/reports/query/facts.ts; INTEGER NOT NULL.
-- Parameters: $domain_key INTEGER; $country, $topic, $tag VARCHAR ('': not given).
WITH a AS (
  SELECT analysis_key, ord FROM query_analyses($domain_key, $country, $topic, $tag)
),
h AS (
  SELECT host, (row_number() OVER (ORDER BY host) - 1)::INTEGER AS host_idx
  FROM (SELECT DISTINCT host FROM citations WHERE domain_key = $domain_key)
)
SELECT a.ord, h.host_idx, count(*)::INTEGER AS n
FROM citations c
JOIN a ON a.analysis_key = c.analysis_key
JOIN h ON h.host = c.host
WHERE c.domain_key = $domain_key
GROUP BY a.ord, h.host_idx
ORDER BY a.ord, h.host_idx
