DELETE FROM theme_occurrences WHERE analysis_key IN (SELECT analysis_key FROM stg_old)
