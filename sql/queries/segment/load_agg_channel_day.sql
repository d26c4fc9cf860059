-- The rows of agg_channel_day for one domain's analyses that pass the segment filters (docs/API.md, "Segment
-- filters"), computed from the raw tables over segment_analyses (analyses.sql): the same columns as sql/queries/load_agg_channel_day.sql, rows in its order.
-- Read by src/queries/segment.ts (kept in the aggregate store per segment until a commit changes the domain).
-- Parameters: $domain_key INTEGER; $model_key INTEGER (-1: any model); $country, $topic, $tag
-- VARCHAR ('': not given).
WITH seg AS (
  SELECT analysis_key FROM segment_analyses($domain_key, $model_key, $country, $topic, $tag)
)
SELECT ((a.day - DATE '1970-01-01'))::DOUBLE AS day,
       (a.channel)::DOUBLE AS channel,
       (count(*))::DOUBLE AS analyses
FROM analyses a
SEMI JOIN seg ON seg.analysis_key = a.analysis_key
WHERE a.domain_key = $domain_key
GROUP BY a.day, a.channel
ORDER BY a.day, a.channel
