-- Competitor time series inputs of one domain, in one statement (one snapshot):
--   kind 0: per day, analyses that pass the channel filter (n1);
--   kind 1: per (day, entity): mentions (n1), position sum/count (n2, n3), sentiment sum/count (n4, n5);
--   kind 2: per entity: distinct prompts mentioning it in the window (n1), from the prompt bitmasks.
-- Parameters: $domain_key INTEGER, $start_day INTEGER, $end_day INTEGER, $channel INTEGER (0 = all).
-- Columns: kind, day (days since epoch), entity_idx, n1, n2, n3, n4, n5 (DOUBLE).
SELECT 0 AS kind, (day - DATE '1970-01-01')::INTEGER AS day, -1 AS entity_idx, sum(analyses)::DOUBLE AS n1,
       0::DOUBLE AS n2, 0::DOUBLE AS n3, 0::DOUBLE AS n4, 0::DOUBLE AS n5
FROM agg_channel_day
WHERE domain_key = $domain_key
  AND day BETWEEN DATE '1970-01-01' + $start_day AND DATE '1970-01-01' + $end_day
  AND ($channel = 0 OR channel = $channel)
GROUP BY day
UNION ALL
SELECT 1, (day - DATE '1970-01-01')::INTEGER, entity_idx, sum(mentions)::DOUBLE, sum(pos_sum)::DOUBLE,
       sum(pos_cnt)::DOUBLE, sum(sent_sum)::DOUBLE, sum(sent_cnt)::DOUBLE
FROM agg_entity_day
WHERE domain_key = $domain_key
  AND day BETWEEN DATE '1970-01-01' + $start_day AND DATE '1970-01-01' + $end_day
  AND ($channel = 0 OR channel = $channel)
GROUP BY day, entity_idx
UNION ALL
SELECT 2, 0, entity_idx, sum(bit_count(bits))::DOUBLE, 0, 0, 0, 0
FROM (
  SELECT entity_idx, chunk, bit_or(bits) AS bits
  FROM agg_entity_prompts
  WHERE domain_key = $domain_key
    AND day BETWEEN DATE '1970-01-01' + $start_day AND DATE '1970-01-01' + $end_day
    AND ($channel = 0 OR channel = $channel)
  GROUP BY entity_idx, chunk
)
GROUP BY entity_idx
