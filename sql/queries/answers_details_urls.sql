-- The citations of a domain's analyses of days $from_day to $to_day whose URL as ingested is not the
-- text of its identity (texts kind 1: the URL without its fragment, serialized), in analysis_key
-- order, for the answers listing's details (src/reports/answers/details.ts; docs/API.md, "GET
-- /api/v1/answers"): the payload shows the URL as ingested. VARCHAR.
-- Parameters: $domain_key INTEGER, $from_day INTEGER, $to_day INTEGER.
SELECT c.analysis_key::VARCHAR AS analysis_key, c.ord::VARCHAR AS ord, c.url
FROM citations c
JOIN texts t ON t.domain_key = c.domain_key AND t.kind = 1 AND t.idx = c.url_idx
WHERE c.domain_key = $domain_key
  AND c.day BETWEEN DATE '1970-01-01' + $from_day AND DATE '1970-01-01' + $to_day
  AND c.url <> t.text
ORDER BY c.analysis_key, c.ord
