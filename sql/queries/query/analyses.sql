-- One domain's analyses that pass the segment filters (segment_analyses, sql/queries/segment/analyses.sql:
-- the one filter rule of every report) as GET /api/v1/query reads them (docs/API.md, "GET
-- /api/v1/query"), by (prompt, channel, day, analysis_key): each prompt and channel a run, by day.
-- The position in this order is the analysis's ordinal in mentions.sql and citations.sql. country_idx: the index of the country in countries.sql's
-- list, -1 when none.
-- Read by src/reports/query/facts.ts; every column INTEGER NOT NULL.
-- Parameters: $domain_key INTEGER; $country, $topic, $tag VARCHAR ('': not given).
WITH seg AS (
  SELECT analysis_key FROM segment_analyses($domain_key, -1, $country, $topic, $tag)
),
k AS (
  SELECT country, (row_number() OVER (ORDER BY country) - 1)::INTEGER AS country_idx
  FROM (SELECT DISTINCT country FROM analyses WHERE domain_key = $domain_key AND country IS NOT NULL)
)
SELECT (a.day - DATE '1970-01-01')::INTEGER AS day,
       a.channel::INTEGER AS channel,
       a.model_key::INTEGER AS model_key,
       a.prompt_idx::INTEGER AS prompt_idx,
       coalesce(k.country_idx, -1)::INTEGER AS country_idx
FROM analyses a
SEMI JOIN seg ON seg.analysis_key = a.analysis_key
LEFT JOIN k ON k.country = a.country
WHERE a.domain_key = $domain_key
ORDER BY a.prompt_idx, a.channel, a.day, a.analysis_key
