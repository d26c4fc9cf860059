-- Ingest step insert_models; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: the staging tables and handle maps (IngestCall.stage).
-- Inserts the raw model ids the store has not seen yet.
INSERT INTO models SELECT model_key, model FROM stg_models
