-- One domain's mentions as GET /api/v1/query reads them, by (analysis ordinal, entity): the
-- ordinal of the analysis in analyses.sql's order, the entity (0: the brand), the position (-1:
-- none) and the sentiment (-1: none; stored ones are 0-100).
-- Read by src/reports/query/facts.ts; INTEGER NOT NULL but sentiment DOUBLE NOT NULL.
-- Parameters: $domain_key INTEGER.
WITH a AS (
  SELECT analysis_key, (row_number() OVER (ORDER BY prompt_idx, channel, day, analysis_key) - 1)::INTEGER AS ord
  FROM analyses WHERE domain_key = $domain_key
)
SELECT a.ord,
       m.entity_idx::INTEGER AS entity_idx,
       coalesce(m.position, -1)::INTEGER AS position,
       coalesce(m.sentiment, -1)::DOUBLE AS sentiment
FROM mentions m
JOIN a ON a.analysis_key = m.analysis_key
WHERE m.domain_key = $domain_key
ORDER BY a.ord, m.entity_idx
