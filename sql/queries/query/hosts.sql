-- The hosts (compared form) of one domain's citation entries, in the order of citations.sql's host_idx.
-- Read by src/reports/query/facts.ts. Parameters: $domain_key INTEGER.
SELECT DISTINCT host FROM citations WHERE domain_key = $domain_key ORDER BY host
