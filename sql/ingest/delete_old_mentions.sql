-- Ingest step delete_old_mentions; phase replace (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: collect_old.
-- Deletes the mentions of the stored analyses the call replaces.
DELETE FROM mentions WHERE analysis_key IN (SELECT analysis_key FROM stg_old)
