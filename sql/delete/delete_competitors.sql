-- Deletion step delete_competitors; phase delete (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- The deleted competitors, and every competitor of a deleted domain.
DELETE FROM competitors
WHERE domain_key IN (SELECT domain_key FROM del_domains)
   OR EXISTS (SELECT 1 FROM del_members d WHERE d.kind = 2 AND d.domain_key = competitors.domain_key AND d.idx = competitors.entity_idx)
