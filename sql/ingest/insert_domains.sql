-- Ingest step insert_domains; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: delete_domains.
-- Inserts the call's domains, with their site host (citation matching) and creation time.
INSERT INTO domains (domain_key, id, team_id, brand_name, website, site_host, created_at)
SELECT domain_key, id::UUID, team_id::UUID, brand_name, website, site_host,
       epoch_ms(created_ms::BIGINT)::TIMESTAMPTZ
FROM stg_domains
