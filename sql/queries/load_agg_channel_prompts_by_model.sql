-- The rows of agg_channel_prompts for one domain's analyses of one raw model, computed from the raw
-- tables (the reports' slower path for a raw model id; test/tables/aggregates-by-model.test.ts checks
-- they add up to the stored table over every model).
-- Columns: those of agg_channel_prompts in AGGREGATE_TABLES (src/tables/aggregates.ts), every one
-- DOUBLE NOT NULL, rows by day.
-- Parameters: $domain_key INTEGER, $model_key INTEGER.
SELECT ((day - DATE '1970-01-01'))::DOUBLE AS day,
       (channel)::DOUBLE AS channel,
       (chunk)::DOUBLE AS chunk,
       ((bits & 4294967295::UBIGINT))::DOUBLE AS lo,
       ((bits >> 32))::DOUBLE AS hi
FROM (
  SELECT a.day, a.channel, a.prompt_idx // 64 AS chunk,
         bit_or((1::UBIGINT) << (a.prompt_idx % 64)::UBIGINT) AS bits
  FROM analyses a
  WHERE a.domain_key = $domain_key AND a.model_key = $model_key
  GROUP BY a.day, a.channel, chunk
)
ORDER BY day, channel, chunk
