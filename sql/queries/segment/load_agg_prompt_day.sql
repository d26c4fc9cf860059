-- The rows of agg_prompt_day for one domain's analyses that pass the segment filters (docs/API.md, "Segment
-- filters"), computed from the raw tables over segment_analyses (analyses.sql): the same columns as sql/queries/load_agg_prompt_day.sql, rows in its order.
-- Read by src/queries/segment.ts (kept in the aggregate store per segment until a commit changes the domain).
-- Parameters: $domain_key INTEGER; $model_key INTEGER (-1: any model); $country, $topic, $tag
-- VARCHAR ('': not given).
WITH seg AS (
  SELECT analysis_key FROM segment_analyses($domain_key, $model_key, $country, $topic, $tag)
)
SELECT ((a.day - DATE '1970-01-01'))::DOUBLE AS day,
       (a.prompt_idx)::DOUBLE AS prompt_idx,
       (count(*))::DOUBLE AS responses,
       (count(m.analysis_key))::DOUBLE AS mentions,
       (coalesce(sum(c.n), 0))::DOUBLE AS citations,
       (coalesce(sum(m.position), 0))::DOUBLE AS pos_sum,
       (count(m.position))::DOUBLE AS pos_cnt
FROM analyses a
SEMI JOIN seg ON seg.analysis_key = a.analysis_key
LEFT JOIN mentions m ON m.analysis_key = a.analysis_key AND m.entity_idx = 0
LEFT JOIN (
  SELECT c.analysis_key, count(*) AS n
  FROM citations c
  SEMI JOIN seg ON seg.analysis_key = c.analysis_key
  JOIN domains d ON d.domain_key = c.domain_key
  WHERE c.domain_key = $domain_key AND is_brand_host(c.host, d.site_host)
  GROUP BY c.analysis_key
) c ON c.analysis_key = a.analysis_key
WHERE a.domain_key = $domain_key
GROUP BY a.day, a.prompt_idx
ORDER BY a.day, a.prompt_idx
