-- Deletion step delete_prompts; phase delete (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- The deleted prompts, and every prompt of a deleted domain.
DELETE FROM prompts
WHERE domain_key IN (SELECT domain_key FROM del_domains)
   OR EXISTS (SELECT 1 FROM del_members d WHERE d.kind = 1 AND d.domain_key = prompts.domain_key AND d.idx = prompts.prompt_idx)
