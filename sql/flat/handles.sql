-- The ids the fact tables of a flat import refer to, each once, in order of first appearance
-- (runs after keys.sql; the record path gives handles in that order; new models take keys in it): kind, the
-- analysis's domain (lower case; null for domains and models), the id (lower case; a model as
-- written) and the row of the analysis that first names it (0-based).
WITH a AS (
  SELECT rn - 1 AS row, lower(domain_id) AS domain_id, lower(prompt_id) AS prompt_id, model
  FROM flat_analyses
),
refs AS (
  SELECT 'domain' AS kind, NULL AS domain_id, domain_id AS id, row, 0 AS pos FROM a
  UNION ALL SELECT 'model', NULL, model, row, 0 FROM a
  UNION ALL SELECT 'prompt', domain_id, prompt_id, row, 0 FROM a
  UNION ALL SELECT 'competitor', a.domain_id, lower(m.entity_id), a.row, m.rn
  FROM flat_mentions_k m JOIN a ON a.row = m.seq WHERE m.entity_id <> 'brand'
  UNION ALL SELECT 'theme', a.domain_id, lower(t.theme_id), a.row, t.rn
  FROM flat_theme_occurrences_k t JOIN a ON a.row = t.seq
)
SELECT kind, domain_id, id, min(row)::INTEGER AS row
FROM refs GROUP BY ALL ORDER BY kind, min(row), min(pos)
