-- One domain's mentions as GET /api/v1/query reads them, one row per (analysis, entity) by (analysis
-- ordinal, entity): the ordinal of the analysis in analyses.sql's order (the analyses that pass the
-- segment filters), the entity (0: the brand), its positions' sum and count and its sentiments' sum
-- and count (stored sentiments are 0-100).
-- Read by src/reports/query/facts.ts; INTEGER NOT NULL but the sums DOUBLE NOT NULL.
-- Parameters: $domain_key INTEGER; $country, $topic, $tag VARCHAR ('': not given).
WITH seg AS (
  SELECT analysis_key FROM segment_analyses($domain_key, -1, $country, $topic, $tag)
),
a AS (
  SELECT analysis_key,
         (row_number() OVER (ORDER BY prompt_idx, channel, day, analysis_key) - 1)::INTEGER AS ord
  FROM analyses
  SEMI JOIN seg USING (analysis_key)
  WHERE domain_key = $domain_key
)
SELECT a.ord,
       m.entity_idx::INTEGER AS entity_idx,
       coalesce(sum(m.position), 0)::DOUBLE AS pos_sum,
       count(m.position)::INTEGER AS pos_cnt,
       coalesce(sum(m.sentiment), 0)::DOUBLE AS sent_sum,
       count(m.sentiment)::INTEGER AS sent_cnt
FROM mentions m
JOIN a ON a.analysis_key = m.analysis_key
WHERE m.domain_key = $domain_key
GROUP BY a.ord, m.entity_idx
ORDER BY a.ord, m.entity_idx
