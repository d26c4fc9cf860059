-- Deletion step renumber_themes_theme_idx; phase renumber (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- themes.theme_idx: the theme indexes of del_renumber.
UPDATE themes SET theme_idx = r.new_idx FROM del_renumber r
WHERE r.kind = 3 AND themes.domain_key = r.domain_key AND themes.theme_idx = r.old_idx
