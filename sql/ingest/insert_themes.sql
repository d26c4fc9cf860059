-- Ingest step insert_themes; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: delete_themes.
-- Inserts the call's themes.
INSERT INTO themes
SELECT domain_key, theme_idx, id::UUID, name, custom_name, archived, sentiment, created_at FROM stg_themes
