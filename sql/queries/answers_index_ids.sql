-- The ids of answers_index's analyses, in its order. Read by src/reports/answers/index.ts; VARCHAR.
-- Parameters: $domain_key INTEGER.
SELECT id::VARCHAR AS id
FROM analyses
WHERE domain_key = $domain_key
ORDER BY epoch_ms(answered_at) DESC, id::VARCHAR DESC
