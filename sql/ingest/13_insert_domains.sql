INSERT INTO domains SELECT domain_key, id::UUID, team_id::UUID, brand_name, website, site_host FROM stg_domains
