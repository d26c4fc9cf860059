-- Deletion step delete_member_theme_occurrences; phase delete (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- The occurrences of the deleted themes (their analyses stay).
DELETE FROM theme_occurrences USING del_members d
WHERE d.kind = 3 AND theme_occurrences.domain_key = d.domain_key AND theme_occurrences.theme_idx = d.idx
