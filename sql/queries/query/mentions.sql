-- One domain's mentions as GET /api/v1/query reads them, one row per (analysis, entity) by (analysis
-- ordinal, entity): the ordinal of the analysis in ordered_analyses.sql (the analyses that pass
-- the segment filters), the entity (0: the brand), its positions' sum and count and its sentiments' sum
-- and count (stored sentiments are 0-100).
-- Read by src/reports/query/facts.ts; INTEGER NOT NULL but the sums DOUBLE NOT NULL.
-- Parameters: $domain_key INTEGER; $country, $topic, $tag VARCHAR ('': not given).
WITH a AS (
  SELECT analysis_key, ord FROM query_analyses($domain_key, $country, $topic, $tag)
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
