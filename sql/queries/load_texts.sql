-- One domain's texts (sql/schema/002: cited URLs, hosts, titles, page types, fan-out queries) by
-- kind then text in binary order: kind, index, and for a URL the index of its host (-1 otherwise).
-- Their strings, in the same order, come from load_texts_text. Read by src/tables/cited-index.ts;
-- every column DOUBLE NOT NULL. Parameters: $domain_key INTEGER.
SELECT (t.kind)::DOUBLE AS kind,
       (t.idx)::DOUBLE AS idx,
       (coalesce(h.idx, -1))::DOUBLE AS host_idx
FROM texts t
LEFT JOIN texts h ON h.domain_key = t.domain_key AND h.kind = 2 AND h.text = t.host
WHERE t.domain_key = $domain_key
ORDER BY t.kind, t.text
