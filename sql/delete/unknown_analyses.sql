-- Deletion query unknown_analyses (src/ingest/deletions.ts), read before the pass runs.
-- Parameters: none. Columns: n INTEGER.
-- Analysis ids the call deletes that are not stored (counted, not an error).
SELECT count(*)::INTEGER AS n FROM del_analyses d WHERE d.id::UUID NOT IN (SELECT id FROM analyses)
