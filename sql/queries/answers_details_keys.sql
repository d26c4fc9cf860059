-- The rows of the answers listing's index (sql/queries/answers_index.sql: the same days, the same
-- order) in analysis_key order: each analysis's key, its row in the index (`r`) and its answered_at
-- (ms), to place the details of src/reports/answers/details.ts, which are read in analysis_key order
-- (docs/API.md, "GET /api/v1/answers").
-- Parameters: $domain_key INTEGER, $from_day INTEGER, $to_day INTEGER.
SELECT analysis_key::DOUBLE AS analysis_key, r, ms
FROM (
  SELECT analysis_key, epoch_ms(answered_at)::DOUBLE AS ms,
         (row_number() OVER (ORDER BY epoch_ms(answered_at) DESC, id DESC) - 1)::INTEGER AS r
  FROM analyses
  WHERE domain_key = $domain_key
    AND day BETWEEN DATE '1970-01-01' + $from_day AND DATE '1970-01-01' + $to_day)
ORDER BY analysis_key
