-- Ingest step insert_teams; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: delete_teams.
-- Inserts the call's teams.
INSERT INTO teams SELECT id::UUID, name, plan, developer_access FROM stg_teams
