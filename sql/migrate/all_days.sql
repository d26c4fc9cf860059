-- Migrations (src/db/migrate.ts): every (domain, day) with analyses is affected, so the aggregates a
-- schema version adds are filled for all of them by their ingest fill steps. Parameters: none.
INSERT INTO stg_affected SELECT DISTINCT domain_key, day FROM analyses
