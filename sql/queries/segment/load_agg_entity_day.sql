-- The rows of agg_entity_day for one domain's analyses that pass the segment filters (docs/API.md, "Segment
-- filters"), computed from the raw tables over segment_analyses (analyses.sql): the same columns as sql/queries/load_agg_entity_day.sql, rows in its order.
-- Read by src/queries/segment.ts (kept in the aggregate store per segment until a commit changes the domain).
-- Parameters: $domain_key INTEGER; $model_key INTEGER (-1: any model); $country, $topic, $tag
-- VARCHAR ('': not given).
WITH seg AS (
  SELECT analysis_key FROM segment_analyses($domain_key, $model_key, $country, $topic, $tag)
)
SELECT ((m.day - DATE '1970-01-01'))::DOUBLE AS day,
       (m.channel)::DOUBLE AS channel,
       (m.entity_idx)::DOUBLE AS entity_idx,
       (count(*))::DOUBLE AS mentions,
       (coalesce(sum(m.position), 0))::DOUBLE AS pos_sum,
       (count(m.position))::DOUBLE AS pos_cnt,
       fixed_hi(coalesce(sum(sentiment_fixed(m.sentiment)), 0)::HUGEINT) AS sent_hi,
       fixed_lo(coalesce(sum(sentiment_fixed(m.sentiment)), 0)::HUGEINT) AS sent_lo,
       (count(m.sentiment))::DOUBLE AS sent_cnt
FROM mentions m
SEMI JOIN seg ON seg.analysis_key = m.analysis_key
WHERE m.domain_key = $domain_key
GROUP BY m.day, m.channel, m.entity_idx
ORDER BY m.day, m.channel, m.entity_idx
