-- One kind of a domain's texts (sql/schema/002: 3 titles, 4 page types, 5 fan-out queries) whose
-- index is above $after, for the answers listing's pages (docs/API.md, "GET /api/v1/answers"): a
-- text's index is stable and never reused, and a new text gets one above every index of its kind,
-- so after a commit only the texts above the largest index already read are read. Read by
-- src/reports/answers/index-rows.ts; VARCHAR.
-- Parameters: $domain_key INTEGER, $kind INTEGER, $after INTEGER.
SELECT idx::VARCHAR AS idx, text
FROM texts
WHERE domain_key = $domain_key AND kind = $kind AND idx > $after
