-- Deletion step renumber_theme_occurrences_theme_idx; phase renumber (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- theme_occurrences.theme_idx: the theme indexes of del_renumber.
UPDATE theme_occurrences SET theme_idx = r.new_idx FROM del_renumber r
WHERE r.kind = 3 AND theme_occurrences.domain_key = r.domain_key AND theme_occurrences.theme_idx = r.old_idx
