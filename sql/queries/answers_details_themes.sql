-- The theme occurrences of a domain's analyses of days $from_day to $to_day, in analysis_key order,
-- for the answers listing's details (src/reports/answers/details.ts; docs/API.md, "GET
-- /api/v1/answers").
-- Parameters: $domain_key INTEGER, $from_day INTEGER, $to_day INTEGER.
SELECT analysis_key::DOUBLE AS analysis_key, theme_idx AS theme, occurrences
FROM theme_occurrences
WHERE domain_key = $domain_key
  AND day BETWEEN DATE '1970-01-01' + $from_day AND DATE '1970-01-01' + $to_day
ORDER BY analysis_key, theme_idx
