DELETE FROM themes WHERE id IN (SELECT id::UUID FROM stg_themes)
