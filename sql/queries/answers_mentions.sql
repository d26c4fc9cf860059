-- The entities each analysis of answers_index mentions (same days, same order: `r` is the
-- analysis's row there), for the answers listing's entity filter. Read by
-- src/reports/answers/index-rows.ts; DOUBLE NOT NULL.
-- Parameters: $domain_key INTEGER, $from_day INTEGER, $to_day INTEGER.
WITH idx AS (
  SELECT analysis_key,
         row_number() OVER (ORDER BY epoch_ms(answered_at) DESC, id DESC) - 1 AS r
  FROM analyses
  WHERE domain_key = $domain_key
    AND day BETWEEN DATE '1970-01-01' + $from_day AND DATE '1970-01-01' + $to_day)
SELECT idx.r::DOUBLE AS r, m.entity_idx::DOUBLE AS entity_idx
FROM mentions m
JOIN idx USING (analysis_key)
WHERE m.domain_key = $domain_key
  AND m.day BETWEEN DATE '1970-01-01' + $from_day AND DATE '1970-01-01' + $to_day
ORDER BY r, entity_idx
