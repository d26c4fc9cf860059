-- Deletion step delete_themes; phase delete (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- The deleted themes, and every theme of a deleted domain.
DELETE FROM themes
WHERE domain_key IN (SELECT domain_key FROM del_domains)
   OR EXISTS (SELECT 1 FROM del_members d WHERE d.kind = 3 AND d.domain_key = themes.domain_key AND d.idx = themes.theme_idx)
