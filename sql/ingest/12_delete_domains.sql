DELETE FROM domains WHERE domain_key IN (SELECT domain_key FROM stg_domains)
