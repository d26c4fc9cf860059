-- Ingest step delete_competitors; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: the staging tables and handle maps (IngestCall.stage).
-- Deletes the stored competitors the call upserts (their keys are kept).
DELETE FROM competitors WHERE id IN (SELECT id::UUID FROM stg_competitors)
