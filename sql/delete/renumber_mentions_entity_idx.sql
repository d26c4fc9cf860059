-- Deletion step renumber_mentions_entity_idx; phase renumber (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- mentions.entity_idx: the competitor indexes of del_renumber.
UPDATE mentions SET entity_idx = r.new_idx FROM del_renumber r
WHERE r.kind = 2 AND mentions.domain_key = r.domain_key AND mentions.entity_idx = r.old_idx
