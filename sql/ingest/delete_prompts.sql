-- Ingest step delete_prompts; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: the staging tables and handle maps (IngestCall.stage).
-- Deletes the stored prompts the call upserts (their keys are kept).
DELETE FROM prompts WHERE id IN (SELECT id::UUID FROM stg_prompts)
