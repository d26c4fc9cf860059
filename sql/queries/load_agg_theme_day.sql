-- One domain's theme occurrences per (day, channel, model, theme), by day.
-- Read by the aggregate store (src/tables/aggregate-store.ts); the columns must be, in order,
-- those of agg_theme_day in AGGREGATE_TABLES (src/tables/aggregates.ts), every one DOUBLE NOT NULL.
-- Parameters: $domain_key INTEGER; $from_day, $to_day INTEGER (days since 1970-01-01: the rows of
-- those days, both included; reload_agg_theme_day.sql reads the days a commit changed).
SELECT ((day - DATE '1970-01-01'))::DOUBLE AS day,
       (channel)::DOUBLE AS channel,
       (model_key)::DOUBLE AS model_key,
       (theme_idx)::DOUBLE AS theme_idx,
       (occurrences)::DOUBLE AS occurrences
FROM agg_theme_day WHERE domain_key = $domain_key
  AND day BETWEEN DATE '1970-01-01' + $from_day AND DATE '1970-01-01' + $to_day ORDER BY day, channel, model_key, theme_idx
