-- One domain's bitmasks of the prompts with an analysis per (day, channel, chunk), by day, each
-- 64-bit mask split into two 32-bit halves.
-- Read by the aggregate store (src/tables/aggregate-store.ts); the columns must be, in order,
-- those of agg_channel_prompts in AGGREGATE_TABLES (src/tables/aggregates.ts), every one DOUBLE NOT
-- NULL.
-- Parameters: $domain_key INTEGER; $from_day, $to_day INTEGER (days since 1970-01-01: the rows of
-- those days, both included; reload_agg_channel_prompts.sql reads the days a commit changed).
SELECT ((day - DATE '1970-01-01'))::DOUBLE AS day,
       (channel)::DOUBLE AS channel,
       (chunk)::DOUBLE AS chunk,
       ((bits & 4294967295::UBIGINT))::DOUBLE AS lo,
       ((bits >> 32))::DOUBLE AS hi
FROM agg_channel_prompts WHERE domain_key = $domain_key
  AND day BETWEEN DATE '1970-01-01' + $from_day AND DATE '1970-01-01' + $to_day ORDER BY day, channel, chunk
