DELETE FROM mentions WHERE analysis_key IN (SELECT analysis_key FROM stg_old)
