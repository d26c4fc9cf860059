-- The rows of agg_fanout for one domain's analyses that pass the segment filters (docs/API.md, "Segment
-- filters"), computed from the raw tables over segment_analyses (analyses.sql) (as sql/ingest/fill_agg_fanout.sql does): the same columns as
-- sql/queries/load_agg_fanout.sql, rows in its order. Read by src/tables/cited-index.ts through
-- src/queries/segment.ts (kept in the aggregate store per segment until a commit changes the domain).
-- Parameters: $domain_key INTEGER; $model_key INTEGER (-1: any model); $country, $topic, $tag
-- VARCHAR ('': not given).
WITH seg AS (
  SELECT analysis_key FROM segment_analyses($domain_key, $model_key, $country, $topic, $tag)
)
SELECT (q.day - DATE '1970-01-01')::INTEGER AS day,
       a.channel::INTEGER AS channel,
       a.model_key,
       a.prompt_idx,
       q.query_idx,
       count(DISTINCT q.analysis_key)::INTEGER AS analyses
FROM fanout_queries q
SEMI JOIN seg ON seg.analysis_key = q.analysis_key
JOIN analyses a ON a.analysis_key = q.analysis_key
WHERE q.domain_key = $domain_key
GROUP BY q.day, a.channel, a.model_key, a.prompt_idx, q.query_idx
ORDER BY a.prompt_idx, q.query_idx, a.channel, q.day
