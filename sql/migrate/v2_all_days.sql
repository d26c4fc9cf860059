-- Migration to schema version 2 (src/db/migrate.ts): every (domain, day) with analyses is affected,
-- so the new aggregates are filled for all of them. Parameters: none.
INSERT INTO stg_affected SELECT DISTINCT domain_key, day FROM analyses
