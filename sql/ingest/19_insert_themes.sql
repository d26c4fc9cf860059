INSERT INTO themes
SELECT domain_key, theme_idx, id::UUID, name, custom_name, archived, sentiment, created_at FROM stg_themes
