-- Deletion step renumber_competitors_entity_idx; phase renumber (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- competitors.entity_idx: the competitor indexes of del_renumber.
UPDATE competitors SET entity_idx = r.new_idx FROM del_renumber r
WHERE r.kind = 2 AND competitors.domain_key = r.domain_key AND competitors.entity_idx = r.old_idx
