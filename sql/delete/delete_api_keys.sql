-- Deletion step delete_api_keys; phase delete (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- The API keys of the deleted teams, revoked or not.
DELETE FROM api_keys WHERE team_id IN (SELECT id::UUID FROM del_teams)
