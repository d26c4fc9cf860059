-- Deletion step reset_affected; phase reset (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- Empties stg_affected for the upserts of the same call.
DELETE FROM stg_affected
