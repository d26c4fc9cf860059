-- Ingest step delete_domains; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: affected_site.
-- Deletes the stored domains the call upserts (their keys are kept: stg_domains carries them).
DELETE FROM domains WHERE domain_key IN (SELECT domain_key FROM stg_domains)
