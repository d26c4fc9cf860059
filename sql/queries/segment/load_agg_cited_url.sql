-- The rows of agg_cited_url for one domain's analyses that pass the segment filters (docs/API.md,
-- "Segment filters"), computed from the raw tables over segment_analyses (analyses.sql) as
-- sql/ingest/fill_agg_cited_url.sql does (in integers; its comment says how): the same columns as
-- sql/queries/load_agg_cited_url.sql, rows in its order. Read by src/tables/cited-index.ts through
-- src/queries/segment.ts (kept in the aggregate store per segment until a commit changes the domain).
-- Parameters: $domain_key INTEGER; $model_key INTEGER (-1: any model); $country, $topic, $tag
-- VARCHAR ('': not given).
WITH seg AS (
  SELECT analysis_key FROM segment_analyses($domain_key, $model_key, $country, $topic, $tag)
)
, an AS (
  SELECT a.analysis_key, a.day, a.channel, a.model_key, a.prompt_idx, epoch_ms(a.answered_at) AS ms,
         row_number() OVER (ORDER BY a.day, epoch_ms(a.answered_at), a.id) AS r
  FROM analyses a
  SEMI JOIN seg ON seg.analysis_key = a.analysis_key
  WHERE a.domain_key = $domain_key
),
per_analysis AS (
  SELECT c.analysis_key, c.url_idx, count(*)::INTEGER AS entries,
         arg_max(c.title_idx, c.ord) FILTER (WHERE c.title_idx IS NOT NULL) AS title_idx,
         arg_max(c.page_type_idx, c.ord) FILTER (WHERE c.page_type_idx IS NOT NULL) AS page_type_idx
  FROM citations c
  SEMI JOIN seg ON seg.analysis_key = c.analysis_key
  WHERE c.domain_key = $domain_key
  GROUP BY c.analysis_key, c.url_idx
),
g AS (
  SELECT an.day, an.channel, an.model_key, an.prompt_idx, x.url_idx,
         sum(x.entries)::INTEGER AS entries, count(*)::INTEGER AS analyses,
         count(b.analysis_key)::INTEGER AS brand,
         min(an.ms) AS first_ms, max(an.ms) AS last_ms,
         max(an.ms) FILTER (WHERE x.title_idx IS NOT NULL) AS t_ms,
         max(an.r) FILTER (WHERE x.title_idx IS NOT NULL) AS t_r,
         arg_max(x.title_idx, an.r) FILTER (WHERE x.title_idx IS NOT NULL) AS t_idx,
         max(an.ms) FILTER (WHERE x.page_type_idx IS NOT NULL) AS p_ms,
         max(an.r) FILTER (WHERE x.page_type_idx IS NOT NULL) AS p_r,
         arg_max(x.page_type_idx, an.r) FILTER (WHERE x.page_type_idx IS NOT NULL) AS p_idx
  FROM per_analysis x
  JOIN an ON an.analysis_key = x.analysis_key
  LEFT JOIN mentions b ON b.analysis_key = x.analysis_key AND b.entity_idx = 0
  GROUP BY an.day, an.channel, an.model_key, an.prompt_idx, x.url_idx
)
-- The columns of sql/queries/load_agg_cited_url.sql, in its order.
SELECT (day - DATE '1970-01-01')::INTEGER AS day, channel::INTEGER AS channel, model_key, url_idx, prompt_idx,
       entries, analyses, brand,
       (first_ms - epoch_ms(day::TIMESTAMP))::INTEGER AS first_off,
       (last_ms - epoch_ms(day::TIMESTAMP))::INTEGER AS last_off,
       coalesce((t_ms - epoch_ms(day::TIMESTAMP))::INTEGER, -1) AS title_off,
       coalesce(t_idx, -1) AS title_idx,
       CASE WHEN t_ms IS NOT NULL THEN rank() OVER (PARTITION BY day, url_idx, t_ms ORDER BY t_r) ELSE 0 END::INTEGER
         AS title_tie,
       coalesce((p_ms - epoch_ms(day::TIMESTAMP))::INTEGER, -1) AS page_type_off,
       coalesce(p_idx, -1) AS page_type_idx,
       CASE WHEN p_ms IS NOT NULL THEN rank() OVER (PARTITION BY day, url_idx, p_ms ORDER BY p_r) ELSE 0 END::INTEGER
         AS page_type_tie
FROM g
ORDER BY url_idx, day
