-- Ingest step delete_old_fanout_queries; phase replace (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: collect_old.
-- Deletes the fan-out queries of the stored analyses the call replaces.
DELETE FROM fanout_queries WHERE analysis_key IN (SELECT analysis_key FROM stg_old)
