-- The rows of agg_citation_day for one domain's analyses that pass the segment filters (docs/API.md, "Segment
-- filters"), computed from the raw tables over segment_analyses (analyses.sql): the same columns as sql/queries/load_agg_citation_day.sql, rows in its order.
-- Read by src/queries/segment.ts (kept in the aggregate store per segment until a commit changes the domain).
-- Parameters: $domain_key INTEGER; $model_key INTEGER (-1: any model); $country, $topic, $tag
-- VARCHAR ('': not given).
WITH seg AS (
  SELECT analysis_key FROM segment_analyses($domain_key, $model_key, $country, $topic, $tag)
)
SELECT ((c.day - DATE '1970-01-01'))::DOUBLE AS day,
       (a.channel)::DOUBLE AS channel,
       (count(*))::DOUBLE AS citations,
       (count(*) FILTER (WHERE is_brand_host(c.host, d.site_host)))::DOUBLE AS brand_citations
FROM citations c
SEMI JOIN seg ON seg.analysis_key = c.analysis_key
JOIN analyses a ON a.analysis_key = c.analysis_key
JOIN domains d ON d.domain_key = c.domain_key
WHERE c.domain_key = $domain_key
GROUP BY c.day, a.channel
ORDER BY c.day, a.channel
