-- The ids of answers_index's analyses, in its order. Read by src/reports/answers/index-rows.ts;
-- VARCHAR.
-- Parameters: $domain_key INTEGER, $from_day INTEGER, $to_day INTEGER.
SELECT id::VARCHAR AS id
FROM analyses
WHERE domain_key = $domain_key
  AND day BETWEEN DATE '1970-01-01' + $from_day AND DATE '1970-01-01' + $to_day
ORDER BY epoch_ms(answered_at) DESC, id::VARCHAR DESC
