-- The rows of agg_citation_day for one domain's analyses of one raw model, computed from the raw
-- tables (the reports' slower path for a raw model id; test/tables/aggregates-by-model.test.ts checks
-- they add up to the stored table over every model).
-- Columns: those of agg_citation_day in AGGREGATE_TABLES (src/tables/aggregates.ts), every one
-- DOUBLE NOT NULL, rows by day.
-- Parameters: $domain_key INTEGER, $model_key INTEGER.
SELECT ((c.day - DATE '1970-01-01'))::DOUBLE AS day,
       (a.channel)::DOUBLE AS channel,
       (count(*))::DOUBLE AS citations,
       (count(*) FILTER (WHERE is_brand_host(c.host, d.site_host)))::DOUBLE AS brand_citations
FROM citations c
JOIN analyses a ON a.analysis_key = c.analysis_key
JOIN domains d ON d.domain_key = c.domain_key
WHERE c.domain_key = $domain_key AND a.model_key = $model_key
GROUP BY c.day, a.channel
ORDER BY c.day, a.channel
