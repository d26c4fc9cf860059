-- Ingest step delete_old_citations; phase replace (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: collect_old.
-- Deletes the citations of the stored analyses the call replaces.
DELETE FROM citations WHERE analysis_key IN (SELECT analysis_key FROM stg_old)
