-- Ingest step delete_old_analyses; phase replace (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: collect_old, affected_old.
-- Deletes the stored analyses the call replaces.
DELETE FROM analyses WHERE analysis_key IN (SELECT analysis_key FROM stg_old)
