-- Deletion step collect_deleted; phase resolve (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- The stored analyses the call's delete records take: deleted by id, or under a deleted domain or
-- prompt. They join stg_old, the analyses an ingest call replaces, so the replace steps of the
-- ingest pipeline remove them with every row under them.
INSERT INTO stg_old
SELECT a.analysis_key FROM analyses a
WHERE a.id IN (SELECT id::UUID FROM del_analyses)
   OR a.domain_key IN (SELECT domain_key FROM del_domains)
   OR EXISTS (SELECT 1 FROM del_members m WHERE m.kind = 1 AND m.domain_key = a.domain_key AND m.idx = a.prompt_idx)
