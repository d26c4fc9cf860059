-- One domain's citation entries as GET /api/v1/query reads them, one row per (analysis, host) by
-- (analysis ordinal, host): the ordinal in analyses.sql's order (the analyses that pass the segment
-- filters), the index of the host in hosts.sql's list and the analysis's entries of that host.
-- Read by src/reports/query/facts.ts; INTEGER NOT NULL.
-- Parameters: $domain_key INTEGER; $country, $topic, $tag VARCHAR ('': not given).
WITH seg AS (
  SELECT analysis_key FROM segment_analyses($domain_key, -1, $country, $topic, $tag)
),
a AS (
  SELECT analysis_key,
         (row_number() OVER (ORDER BY prompt_idx, channel, day, analysis_key) - 1)::INTEGER AS ord
  FROM analyses
  SEMI JOIN seg USING (analysis_key)
  WHERE domain_key = $domain_key
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
