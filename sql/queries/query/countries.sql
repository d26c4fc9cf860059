-- The countries of one domain's analyses, in the order of analyses.sql's country_idx.
-- Read by src/reports/query/facts.ts. Parameters: $domain_key INTEGER.
SELECT DISTINCT country FROM analyses
WHERE domain_key = $domain_key AND country IS NOT NULL
ORDER BY country
