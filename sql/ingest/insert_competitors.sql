-- Ingest step insert_competitors; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: delete_competitors.
-- Inserts the call's competitors.
INSERT INTO competitors SELECT domain_key, entity_idx, id::UUID, name, website FROM stg_competitors
