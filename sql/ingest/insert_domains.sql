-- Ingest step insert_domains; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: delete_domains.
-- Inserts the call's domains, with their site host (citation matching).
INSERT INTO domains SELECT domain_key, id::UUID, team_id::UUID, brand_name, website, site_host FROM stg_domains
