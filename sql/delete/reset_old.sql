-- Deletion step reset_old; phase reset (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- Empties stg_old for the upserts of the same call.
DELETE FROM stg_old
