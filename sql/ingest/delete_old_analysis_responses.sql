-- Ingest step delete_old_analysis_responses; phase replace (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: collect_old.
-- Deletes the answer texts of the stored analyses the call replaces (and, in a deletion pass, of
-- the analyses deleted or pruned: src/ingest/deletions.ts).
DELETE FROM analysis_responses WHERE analysis_key IN (SELECT analysis_key FROM stg_old)
