-- Deletion query conflicting_analyses (src/ingest/deletions.ts), read before the pass runs.
-- Parameters: none. Columns: id VARCHAR, domain_key INTEGER (null: not stored), prompt_idx INTEGER.
-- Analyses the call upserts that its delete records take: deleted by id, or stored under a deleted
-- domain or prompt. Such a call is refused.
SELECT DISTINCT s.id::UUID::VARCHAR AS id, a.domain_key, a.prompt_idx
FROM stg_analyses s
LEFT JOIN analyses a ON a.id = s.id::UUID
WHERE s.id::UUID IN (SELECT id::UUID FROM del_analyses)
   OR a.domain_key IN (SELECT domain_key FROM del_domains)
   OR EXISTS (SELECT 1 FROM del_members m WHERE m.kind = 1 AND m.domain_key = a.domain_key AND m.idx = a.prompt_idx)
ORDER BY id
LIMIT 100
