-- One kind of a domain's texts (sql/schema/002: 1 cited URLs, 2 hosts, 3 titles, 4 page types,
-- 5 fan-out queries): their indexes, by text in binary order. Their strings, in the same order,
-- come from load_texts_text. Read by src/tables/cited-index.ts; INTEGER NOT NULL.
-- Parameters: $domain_key INTEGER, $kind INTEGER.
SELECT idx FROM texts WHERE domain_key = $domain_key AND kind = $kind ORDER BY text
