-- The details of up to 20 analyses of one page of the answers listing (docs/API.md, "GET
-- /api/v1/answers"), one row per detail: kind 0 the answer's text (a = response), 1 a mention (a =
-- entity_idx, b = position, c = sentiment), 2 a citation (a = url, b = host, c = title_idx, d =
-- page_type_idx), 3 a theme occurrence (a = theme_idx, b = occurrences), 4 a fan-out query (a =
-- query_idx); `slot` is the analysis's place in the page, `ord` the record's order of citations and
-- queries. Unused slots are -1. The texts are fetched through the index on analysis_responses (the
-- page's rows alone are read); the other tables are scanned in [$lo, $hi], the smallest and largest
-- key of the page (a real filter: their scans skip every vector outside it), keeping the page's
-- keys, with no join. Read by src/reports/answers/query.ts; VARCHAR.
-- Parameters: $domain_key INTEGER, $lo INTEGER, $hi INTEGER, $k0 ... $k19 INTEGER (analysis keys).
SELECT (list_position([$k0, $k1, $k2, $k3, $k4, $k5, $k6, $k7, $k8, $k9, $k10, $k11, $k12, $k13, $k14, $k15, $k16, $k17, $k18, $k19 ], analysis_key) - 1)::VARCHAR AS slot, '0' AS kind, '0' AS ord,
       response AS a, NULL AS b, NULL AS c, NULL AS d
FROM analysis_responses
WHERE analysis_key IN ($k0, $k1, $k2, $k3, $k4, $k5, $k6, $k7, $k8, $k9, $k10, $k11, $k12, $k13, $k14, $k15, $k16, $k17, $k18, $k19)
  AND domain_key = $domain_key
UNION ALL
SELECT (list_position([$k0, $k1, $k2, $k3, $k4, $k5, $k6, $k7, $k8, $k9, $k10, $k11, $k12, $k13, $k14, $k15, $k16, $k17, $k18, $k19 ], analysis_key) - 1)::VARCHAR, '1', '0', entity_idx::VARCHAR,
       position::VARCHAR, sentiment::VARCHAR, NULL
FROM mentions
WHERE analysis_key BETWEEN $lo AND $hi AND domain_key = $domain_key
  AND list_contains([$k0, $k1, $k2, $k3, $k4, $k5, $k6, $k7, $k8, $k9, $k10, $k11, $k12, $k13, $k14, $k15, $k16, $k17, $k18, $k19 ], analysis_key)
UNION ALL
SELECT (list_position([$k0, $k1, $k2, $k3, $k4, $k5, $k6, $k7, $k8, $k9, $k10, $k11, $k12, $k13, $k14, $k15, $k16, $k17, $k18, $k19 ], analysis_key) - 1)::VARCHAR, '2', ord::VARCHAR, url, host,
       title_idx::VARCHAR, page_type_idx::VARCHAR
FROM citations
WHERE analysis_key BETWEEN $lo AND $hi AND domain_key = $domain_key
  AND list_contains([$k0, $k1, $k2, $k3, $k4, $k5, $k6, $k7, $k8, $k9, $k10, $k11, $k12, $k13, $k14, $k15, $k16, $k17, $k18, $k19 ], analysis_key)
UNION ALL
SELECT (list_position([$k0, $k1, $k2, $k3, $k4, $k5, $k6, $k7, $k8, $k9, $k10, $k11, $k12, $k13, $k14, $k15, $k16, $k17, $k18, $k19 ], analysis_key) - 1)::VARCHAR, '3', '0', theme_idx::VARCHAR,
       occurrences::VARCHAR, NULL, NULL
FROM theme_occurrences
WHERE analysis_key BETWEEN $lo AND $hi AND domain_key = $domain_key
  AND list_contains([$k0, $k1, $k2, $k3, $k4, $k5, $k6, $k7, $k8, $k9, $k10, $k11, $k12, $k13, $k14, $k15, $k16, $k17, $k18, $k19 ], analysis_key)
UNION ALL
SELECT (list_position([$k0, $k1, $k2, $k3, $k4, $k5, $k6, $k7, $k8, $k9, $k10, $k11, $k12, $k13, $k14, $k15, $k16, $k17, $k18, $k19 ], analysis_key) - 1)::VARCHAR, '4', ord::VARCHAR, query_idx::VARCHAR,
       NULL, NULL, NULL
FROM fanout_queries
WHERE analysis_key BETWEEN $lo AND $hi AND domain_key = $domain_key
  AND list_contains([$k0, $k1, $k2, $k3, $k4, $k5, $k6, $k7, $k8, $k9, $k10, $k11, $k12, $k13, $k14, $k15, $k16, $k17, $k18, $k19 ], analysis_key)
