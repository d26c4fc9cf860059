-- One domain's entity aggregates, by day.
-- Read by the aggregate store (src/tables/aggregate-store.ts); the columns must be, in order,
-- those of agg_entity_day in AGGREGATE_TABLES (src/tables/aggregates.ts), every one DOUBLE NOT
-- NULL. The fixed-point sentiment sum travels as two doubles (fixed_hi, fixed_lo).
-- Parameters: $domain_key INTEGER; $from_day, $to_day INTEGER (days since 1970-01-01: the rows of
-- those days, both included; reload_agg_entity_day.sql reads the days a commit changed).
SELECT ((day - DATE '1970-01-01'))::DOUBLE AS day,
       (channel)::DOUBLE AS channel,
       (entity_idx)::DOUBLE AS entity_idx,
       (mentions)::DOUBLE AS mentions,
       (pos_sum)::DOUBLE AS pos_sum,
       (pos_cnt)::DOUBLE AS pos_cnt,
       fixed_hi(sent_sum) AS sent_hi,
       fixed_lo(sent_sum) AS sent_lo,
       (sent_cnt)::DOUBLE AS sent_cnt
FROM agg_entity_day WHERE domain_key = $domain_key
  AND day BETWEEN DATE '1970-01-01' + $from_day AND DATE '1970-01-01' + $to_day ORDER BY day, channel, entity_idx
