-- The ids the fact tables of a flat import refer to, each once, in order of first appearance
-- (runs after keys.sql; the record path gives handles in that order; new models take keys in it): kind, the
-- analysis's domain (lower case; null for domains and models), the id (lower case; a model as
-- written) and the row of the analysis that first names it (0-based). Child rows are grouped by
-- their id as written and the analysis's domain as a number first (no string is lowered or joined
-- per child row), then by the id in lower case.
WITH a AS (
  SELECT rn - 1 AS row, lower(domain_id) AS domain_id, lower(prompt_id) AS prompt_id, model
  FROM flat_analyses
),
doms AS (
  SELECT domain_id, (row_number() OVER ())::INTEGER AS d FROM (SELECT DISTINCT domain_id FROM a)
),
ad AS (
  SELECT a.row, doms.d FROM a JOIN doms USING (domain_id)
),
kids AS (
  SELECT 'competitor' AS kind, ad.d, m.entity_id AS raw, min(ad.row) AS row, min(m.rn) AS pos
  FROM flat_mentions_k m JOIN ad ON ad.row = m.seq WHERE m.entity_id <> 'brand' GROUP BY ALL
  UNION ALL SELECT 'theme', ad.d, t.theme_id, min(ad.row), min(t.rn)
  FROM flat_theme_occurrences_k t JOIN ad ON ad.row = t.seq GROUP BY ALL
),
refs AS (
  SELECT 'domain' AS kind, NULL AS domain_id, domain_id AS id, row, 0 AS pos FROM a
  UNION ALL SELECT 'model', NULL, model, row, 0 FROM a
  UNION ALL SELECT 'prompt', domain_id, prompt_id, row, 0 FROM a
  UNION ALL SELECT k.kind, doms.domain_id, lower(k.raw), k.row, k.pos FROM kids k JOIN doms USING (d)
)
SELECT kind, domain_id, id, min(row)::INTEGER AS row
FROM refs GROUP BY ALL ORDER BY kind, min(row), min(pos)
