-- Deletion step delete_teams; phase delete (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- The deleted teams.
DELETE FROM teams WHERE id IN (SELECT id::UUID FROM del_teams)
