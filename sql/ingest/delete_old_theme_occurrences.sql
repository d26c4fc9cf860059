-- Ingest step delete_old_theme_occurrences; phase replace (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: collect_old.
-- Deletes the theme occurrences of the stored analyses the call replaces.
DELETE FROM theme_occurrences WHERE analysis_key IN (SELECT analysis_key FROM stg_old)
