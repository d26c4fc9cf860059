-- Deletion step renumber_mentions_prompt_idx; phase renumber (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- mentions.prompt_idx: the prompt indexes of del_renumber.
UPDATE mentions SET prompt_idx = r.new_idx FROM del_renumber r
WHERE r.kind = 1 AND mentions.domain_key = r.domain_key AND mentions.prompt_idx = r.old_idx
