-- The rows of agg_cited_url for one domain's analyses that pass the segment filters (docs/API.md, "Segment
-- filters"), computed from the raw tables over segment_analyses (analyses.sql) (as sql/ingest/fill_agg_cited_url.sql does): the same columns as
-- sql/queries/load_agg_cited_url.sql, rows in its order. Read by src/tables/cited-index.ts through
-- src/queries/segment.ts (kept in the aggregate store per segment until a commit changes the domain).
-- Parameters: $domain_key INTEGER; $model_key INTEGER (-1: any model); $country, $topic, $tag
-- VARCHAR ('': not given).
WITH seg AS (
  SELECT analysis_key FROM segment_analyses($domain_key, $model_key, $country, $topic, $tag)
)
, per_analysis AS (
  SELECT c.analysis_key, c.url_idx, count(*)::INTEGER AS entries,
         arg_max(c.title_idx, c.ord) FILTER (WHERE c.title_idx IS NOT NULL) AS title_idx,
         max(c.ord) FILTER (WHERE c.title_idx IS NOT NULL) AS title_ord,
         arg_max(c.page_type_idx, c.ord) FILTER (WHERE c.page_type_idx IS NOT NULL) AS page_type_idx,
         max(c.ord) FILTER (WHERE c.page_type_idx IS NOT NULL) AS page_type_ord
  FROM citations c
  SEMI JOIN seg ON seg.analysis_key = c.analysis_key
  WHERE c.domain_key = $domain_key
  GROUP BY c.analysis_key, c.url_idx
),
g AS (
  SELECT a.day, a.channel, a.model_key, a.prompt_idx, x.url_idx,
         sum(x.entries)::INTEGER AS entries, count(*)::INTEGER AS analyses,
         count(b.analysis_key)::INTEGER AS brand,
         (min(epoch_ms(a.answered_at)) - epoch_ms(a.day::TIMESTAMP))::INTEGER AS first_off,
         (max(epoch_ms(a.answered_at)) - epoch_ms(a.day::TIMESTAMP))::INTEGER AS last_off,
         max({'ms': epoch_ms(a.answered_at), 'aid': a.id, 'ord': x.title_ord, 'idx': x.title_idx})
           FILTER (WHERE x.title_idx IS NOT NULL) AS title,
         max({'ms': epoch_ms(a.answered_at), 'aid': a.id, 'ord': x.page_type_ord, 'idx': x.page_type_idx})
           FILTER (WHERE x.page_type_idx IS NOT NULL) AS page_type
  FROM per_analysis x
  JOIN analyses a ON a.analysis_key = x.analysis_key
  LEFT JOIN mentions b ON b.analysis_key = x.analysis_key AND b.entity_idx = 0
  GROUP BY a.day, a.channel, a.model_key, a.prompt_idx, x.url_idx
)
SELECT (day - DATE '1970-01-01')::INTEGER AS day,
       channel::INTEGER AS channel,
       model_key,
       url_idx,
       prompt_idx,
       entries,
       analyses,
       brand,
       first_off,
       last_off,
       coalesce((title.ms - epoch_ms(day::TIMESTAMP))::INTEGER, -1) AS title_off,
       coalesce(title.idx, -1) AS title_idx,
       coalesce(CASE WHEN title IS NOT NULL THEN
         rank() OVER (PARTITION BY day, url_idx, title.ms ORDER BY title.aid, title.ord) END::INTEGER, 0) AS title_tie,
       coalesce((page_type.ms - epoch_ms(day::TIMESTAMP))::INTEGER, -1) AS page_type_off,
       coalesce(page_type.idx, -1) AS page_type_idx,
       coalesce(CASE WHEN page_type IS NOT NULL THEN
         rank() OVER (PARTITION BY day, url_idx, page_type.ms ORDER BY page_type.aid, page_type.ord)
       END::INTEGER, 0) AS page_type_tie
FROM g
ORDER BY url_idx, day
