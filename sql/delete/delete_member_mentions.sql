-- Deletion step delete_member_mentions; phase delete (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- The mentions of the deleted competitors (their analyses stay).
DELETE FROM mentions USING del_members d
WHERE d.kind = 2 AND mentions.domain_key = d.domain_key AND mentions.entity_idx = d.idx
