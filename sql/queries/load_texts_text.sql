-- One kind of a domain's texts as strings, in the order of load_texts (by text in binary order: the
-- UTF-16 order for ASCII; the reader checks it). Read by src/tables/cited-index.ts; VARCHAR.
-- Parameters: $domain_key INTEGER, $kind INTEGER.
SELECT text FROM texts WHERE domain_key = $domain_key AND kind = $kind ORDER BY text
