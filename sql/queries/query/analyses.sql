-- One domain's analyses that pass the segment filters (segment_analyses, sql/queries/segment/analyses.sql:
-- the one filter rule of every report) as GET /api/v1/query reads them (docs/API.md, "GET
-- /api/v1/query"), in ordered_analyses.sql's order (the ordinal mentions.sql and citations.sql
-- share). country_idx: the index of the country in countries.sql's
-- list, -1 when none.
-- Read by src/reports/query/facts.ts; every column INTEGER NOT NULL.
-- Parameters: $domain_key INTEGER; $country, $topic, $tag VARCHAR ('': not given).
WITH k AS (
  SELECT country, (row_number() OVER (ORDER BY country) - 1)::INTEGER AS country_idx
  FROM (SELECT DISTINCT country FROM analyses WHERE domain_key = $domain_key AND country IS NOT NULL)
)
SELECT (a.day - DATE '1970-01-01')::INTEGER AS day,
       a.channel::INTEGER AS channel,
       a.model_key::INTEGER AS model_key,
       a.prompt_idx::INTEGER AS prompt_idx,
       coalesce(k.country_idx, -1)::INTEGER AS country_idx
FROM query_analyses($domain_key, $country, $topic, $tag) o
JOIN analyses a ON a.analysis_key = o.analysis_key
LEFT JOIN k ON k.country = a.country
ORDER BY o.ord
