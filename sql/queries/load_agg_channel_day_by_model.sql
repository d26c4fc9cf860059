-- The rows of agg_channel_day for one domain's analyses of one raw model, computed from the raw
-- tables (the reports' slower path for a raw model id; test/tables/aggregates-by-model.test.ts checks
-- they add up to the stored table over every model).
-- Columns: those of agg_channel_day in AGGREGATE_TABLES (src/tables/aggregates.ts), every one
-- DOUBLE NOT NULL, rows by day.
-- Parameters: $domain_key INTEGER, $model_key INTEGER.
SELECT ((a.day - DATE '1970-01-01'))::DOUBLE AS day,
       (a.channel)::DOUBLE AS channel,
       (count(*))::DOUBLE AS analyses
FROM analyses a
WHERE a.domain_key = $domain_key AND a.model_key = $model_key
GROUP BY a.day, a.channel
ORDER BY a.day, a.channel
