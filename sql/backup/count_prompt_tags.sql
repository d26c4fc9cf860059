-- The stored prompt tags, one per (prompt, tag): what a restore compares with the manifest's
-- prompt_tags rows (the ingest result counts prompts, not their tags).
SELECT count(*)::INTEGER AS n FROM prompts CROSS JOIN unnest(tags) AS t(tag)
