-- Migration to schema version 3 (src/db/migrate.ts): every domain is its own handle. Parameters: none.
INSERT INTO stg_domain_map SELECT domain_key, domain_key FROM domains
