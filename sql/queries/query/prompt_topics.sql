-- The topic of each of one domain's prompts that has one (docs/API.md, "Ingest: records").
-- Read by src/reports/query/facts.ts. Parameters: $domain_key INTEGER.
SELECT prompt_idx::VARCHAR AS prompt_idx, topic FROM prompts
WHERE domain_key = $domain_key AND topic IS NOT NULL
