-- The rows of agg_theme_day for one domain's analyses that pass the segment filters (docs/API.md, "Segment
-- filters"), computed from the raw tables over segment_analyses (analyses.sql): the same columns as sql/queries/load_agg_theme_day.sql, rows in its order.
-- Read by src/queries/segment.ts (kept in the aggregate store per segment until a commit changes the domain).
-- Parameters: $domain_key INTEGER; $model_key INTEGER (-1: any model); $country, $topic, $tag
-- VARCHAR ('': not given).
WITH seg AS (
  SELECT analysis_key FROM segment_analyses($domain_key, $model_key, $country, $topic, $tag)
)
SELECT ((t.day - DATE '1970-01-01'))::DOUBLE AS day,
       (t.channel)::DOUBLE AS channel,
       (t.model_key)::DOUBLE AS model_key,
       (t.theme_idx)::DOUBLE AS theme_idx,
       (sum(t.occurrences))::DOUBLE AS occurrences
FROM theme_occurrences t
SEMI JOIN seg ON seg.analysis_key = t.analysis_key
WHERE t.domain_key = $domain_key
GROUP BY t.day, t.channel, t.model_key, t.theme_idx
ORDER BY t.day, t.channel, t.model_key, t.theme_idx
