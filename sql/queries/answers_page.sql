-- The details of up to 20 analyses of one page of the answers listing (docs/API.md, "GET
-- /api/v1/answers"), one row per detail: kind 0 the answer's text (a = response), 1 a mention (a =
-- entity_idx, b = position, c = sentiment), 2 a citation (a = url, b = host, c = title, d = page
-- type), 3 a theme occurrence (a = theme_idx, b = occurrences), 4 a fan-out query (a = its text).
-- `ord` keeps the record's order of citations and queries. Unused slots are -1. Read by
-- src/reports/answers/query.ts; VARCHAR.
-- Parameters: $domain_key INTEGER, $k0 ... $k19 INTEGER (analysis keys).
WITH page(analysis_key, slot) AS (VALUES ($k0, 0), ($k1, 1), ($k2, 2), ($k3, 3), ($k4, 4), ($k5, 5), ($k6, 6), ($k7, 7), ($k8, 8), ($k9, 9), ($k10, 10), ($k11, 11), ($k12, 12), ($k13, 13), ($k14, 14), ($k15, 15), ($k16, 16), ($k17, 17), ($k18, 18), ($k19, 19))
SELECT p.slot::VARCHAR AS slot, '0' AS kind, '0' AS ord, r.response AS a, NULL AS b, NULL AS c, NULL AS d
FROM page p JOIN analysis_responses r ON r.analysis_key = p.analysis_key AND r.domain_key = $domain_key
UNION ALL
SELECT p.slot::VARCHAR, '1', '0', m.entity_idx::VARCHAR, m.position::VARCHAR, m.sentiment::VARCHAR, NULL
FROM page p JOIN mentions m ON m.analysis_key = p.analysis_key AND m.domain_key = $domain_key
UNION ALL
SELECT p.slot::VARCHAR, '2', c.ord::VARCHAR, c.url, c.host, t.text, pt.text
FROM page p JOIN citations c ON c.analysis_key = p.analysis_key AND c.domain_key = $domain_key
LEFT JOIN texts t ON t.domain_key = c.domain_key AND t.kind = 3 AND t.idx = c.title_idx
LEFT JOIN texts pt ON pt.domain_key = c.domain_key AND pt.kind = 4 AND pt.idx = c.page_type_idx
UNION ALL
SELECT p.slot::VARCHAR, '3', '0', o.theme_idx::VARCHAR, o.occurrences::VARCHAR, NULL, NULL
FROM page p JOIN theme_occurrences o ON o.analysis_key = p.analysis_key AND o.domain_key = $domain_key
UNION ALL
SELECT p.slot::VARCHAR, '4', q.ord::VARCHAR, t.text, NULL, NULL, NULL
FROM page p JOIN fanout_queries q ON q.analysis_key = p.analysis_key AND q.domain_key = $domain_key
JOIN texts t ON t.domain_key = q.domain_key AND t.kind = 5 AND t.idx = q.query_idx
