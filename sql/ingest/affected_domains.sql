-- Domains whose aggregates the staged call changes (read before COMMIT, to drop cached aggregates).
SELECT DISTINCT domain_key FROM stg_affected ORDER BY domain_key
