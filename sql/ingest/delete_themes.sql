-- Ingest step delete_themes; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: the staging tables and handle maps (IngestCall.stage).
-- Deletes the stored themes the call upserts (their keys are kept).
DELETE FROM themes WHERE id IN (SELECT id::UUID FROM stg_themes)
