-- The answer texts of up to 20 analyses of one page of the answers listing (docs/API.md, "GET
-- /api/v1/answers"): `slot` is the analysis's place in the page (unused slots are -1; an analysis
-- with no text has no row). The rest of a page's details are kept in memory
-- (src/reports/answers/details.ts). The texts are fetched through the index on analysis_responses
-- (sql/schema/008_answers_lookup.sql): the page's rows alone are read. Read by
-- src/reports/answers/query.ts; VARCHAR.
-- Parameters: $domain_key INTEGER, $k0 ... $k19 INTEGER (analysis keys).
SELECT (list_position([$k0, $k1, $k2, $k3, $k4, $k5, $k6, $k7, $k8, $k9, $k10, $k11, $k12, $k13, $k14, $k15, $k16, $k17, $k18, $k19 ], analysis_key) - 1)::VARCHAR AS slot, response
FROM analysis_responses
WHERE analysis_key IN ($k0, $k1, $k2, $k3, $k4, $k5, $k6, $k7, $k8, $k9, $k10, $k11, $k12, $k13, $k14, $k15, $k16, $k17, $k18, $k19)
  AND domain_key = $domain_key
