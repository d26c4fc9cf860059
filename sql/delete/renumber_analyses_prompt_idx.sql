-- Deletion step renumber_analyses_prompt_idx; phase renumber (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- analyses.prompt_idx: the prompt indexes of del_renumber.
UPDATE analyses SET prompt_idx = r.new_idx FROM del_renumber r
WHERE r.kind = 1 AND analyses.domain_key = r.domain_key AND analyses.prompt_idx = r.old_idx
