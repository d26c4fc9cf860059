-- Ingest step delete_teams; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: the staging tables and handle maps (IngestCall.stage).
-- Deletes the stored teams the call upserts (then inserted again from stg_teams).
DELETE FROM teams WHERE id IN (SELECT id::UUID FROM stg_teams)
