-- The rows of agg_cited_host for one domain's analyses that pass the segment filters (docs/API.md,
-- "Segment filters"), computed from the raw tables over segment_analyses (analyses.sql) as
-- sql/ingest/fill_agg_cited_host.sql does: the same columns as sql/queries/load_agg_cited_host.sql,
-- rows in its order. Read by src/tables/cited-index.ts through
-- src/queries/segment.ts (kept in the aggregate store per segment until a commit changes the domain).
-- Parameters: $domain_key INTEGER; $model_key INTEGER (-1: any model); $country, $topic, $tag
-- VARCHAR ('': not given).
WITH seg AS (
  SELECT analysis_key FROM segment_analyses($domain_key, $model_key, $country, $topic, $tag)
),
per_analysis AS (
  SELECT c.analysis_key, c.host_idx, count(*) AS entries
  FROM citations c
  SEMI JOIN seg ON seg.analysis_key = c.analysis_key
  WHERE c.domain_key = $domain_key
  GROUP BY c.analysis_key, c.host_idx
)
SELECT (a.day - DATE '1970-01-01')::INTEGER AS day,
       a.channel::INTEGER AS channel,
       a.model_key,
       x.host_idx,
       sum(x.entries)::INTEGER AS entries,
       count(*)::INTEGER AS analyses
FROM per_analysis x
JOIN analyses a ON a.analysis_key = x.analysis_key
GROUP BY a.day, a.channel, a.model_key, x.host_idx
ORDER BY a.day, a.channel, a.model_key, x.host_idx
