-- One domain's citation entries as GET /api/v1/query reads them, by analysis ordinal (analyses.sql's
-- order): the index of the entry's host in hosts.sql's list.
-- Read by src/reports/query/facts.ts; INTEGER NOT NULL. Parameters: $domain_key INTEGER.
WITH a AS (
  SELECT analysis_key, (row_number() OVER (ORDER BY prompt_idx, channel, day, analysis_key) - 1)::INTEGER AS ord
  FROM analyses WHERE domain_key = $domain_key
),
h AS (
  SELECT host, (row_number() OVER (ORDER BY host) - 1)::INTEGER AS host_idx
  FROM (SELECT DISTINCT host FROM citations WHERE domain_key = $domain_key)
)
SELECT a.ord, h.host_idx
FROM citations c
JOIN a ON a.analysis_key = c.analysis_key
JOIN h ON h.host = c.host
WHERE c.domain_key = $domain_key
ORDER BY a.ord
