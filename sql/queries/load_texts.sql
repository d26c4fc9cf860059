-- One domain's texts (sql/schema/002: cited URLs with their host, hosts, titles, page types,
-- fan-out queries), by kind then text in binary order (the UTF-16 order for ASCII; the reader
-- checks it). Read by src/tables/cited-index.ts. Every column VARCHAR.
-- Parameters: $domain_key INTEGER.
SELECT kind::VARCHAR AS kind, idx::VARCHAR AS idx, text, host
FROM texts WHERE domain_key = $domain_key ORDER BY kind, text
