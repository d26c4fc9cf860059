-- A domain's prompts' topic and tags (a JSON array) for the answers listing's topic and tag
-- filters. Read by src/reports/answers/index.ts; VARCHAR.
-- Parameters: $domain_key INTEGER.
SELECT prompt_idx::VARCHAR AS prompt_idx, topic, to_json(coalesce(tags, []))::VARCHAR AS tags
FROM prompts
WHERE domain_key = $domain_key
