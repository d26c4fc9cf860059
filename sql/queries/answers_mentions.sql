-- The entities each analysis of a domain mentions, by the analysis's row in answers_index (same
-- order), for the answers listing's entity filter. Read by src/reports/answers/index.ts; DOUBLE NOT NULL.
-- Parameters: $domain_key INTEGER.
WITH idx AS (
  SELECT analysis_key,
         row_number() OVER (ORDER BY epoch_ms(answered_at) DESC, id::VARCHAR DESC) - 1 AS r
  FROM analyses
  WHERE domain_key = $domain_key)
SELECT idx.r::DOUBLE AS r, m.entity_idx::DOUBLE AS entity_idx
FROM mentions m
JOIN idx USING (analysis_key)
WHERE m.domain_key = $domain_key
ORDER BY r, entity_idx
