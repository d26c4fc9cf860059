-- The citations of a domain's analyses of days $from_day to $to_day, in analysis_key order and then
-- the record's order, for the answers listing's details (src/reports/answers/details.ts; docs/API.md,
-- "GET /api/v1/answers"): the indexes of their URL identity, host, title and page type in texts
-- (-1: no title, no page type). The URL as ingested, where it is not its identity's text, is read by
-- sql/queries/answers_details_urls.sql.
-- Parameters: $domain_key INTEGER, $from_day INTEGER, $to_day INTEGER.
SELECT analysis_key::DOUBLE AS analysis_key, url_idx AS url, host_idx AS host,
       coalesce(title_idx, -1) AS title, coalesce(page_type_idx, -1) AS pageType, ord
FROM citations
WHERE domain_key = $domain_key
  AND day BETWEEN DATE '1970-01-01' + $from_day AND DATE '1970-01-01' + $to_day
ORDER BY analysis_key, ord
