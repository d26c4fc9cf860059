-- The tags of one domain's prompts, one row per (prompt, tag).
-- Read by src/reports/query/facts.ts. Parameters: $domain_key INTEGER.
SELECT prompt_idx::VARCHAR AS prompt_idx, tag FROM (
  SELECT prompt_idx, unnest(tags) AS tag FROM prompts WHERE domain_key = $domain_key
)
