-- Deletion step renumber_prompts_prompt_idx; phase renumber (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- prompts.prompt_idx: the prompt indexes of del_renumber.
UPDATE prompts SET prompt_idx = r.new_idx FROM del_renumber r
WHERE r.kind = 1 AND prompts.domain_key = r.domain_key AND prompts.prompt_idx = r.old_idx
