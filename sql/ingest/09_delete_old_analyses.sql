DELETE FROM analyses WHERE analysis_key IN (SELECT analysis_key FROM stg_old)
