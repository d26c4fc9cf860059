-- The rows of sql/queries/load_agg_entity_prompt_day.sql (its columns, after domain_key) of the days a commit
-- changed, for many domains in one query, ordered by domain, then as that query orders them.
-- Read by the aggregate store (src/tables/aggregate-store.ts): a commit that touches dozens of
-- domains costs one such query per table at the next read, not one per domain and table.
-- Parameters: $domain_keys, $from_days, $to_days INTEGER[] of one length: per domain, the days
-- from_day..to_day (days since 1970-01-01, both included); $from_day, $to_day INTEGER: the least
-- from_day and the greatest to_day (a filter the scan can use).
SELECT (a.domain_key)::DOUBLE AS domain_key,
       ((a.day - DATE '1970-01-01'))::DOUBLE AS day,
       (channel)::DOUBLE AS channel,
       (entity_idx)::DOUBLE AS entity_idx,
       (prompt_idx)::DOUBLE AS prompt_idx,
       (mentions)::DOUBLE AS mentions,
       (pos_sum)::DOUBLE AS pos_sum,
       (pos_cnt)::DOUBLE AS pos_cnt
FROM agg_entity_prompt_day a
JOIN (SELECT unnest($domain_keys) AS domain_key, unnest($from_days) AS from_day, unnest($to_days) AS to_day) w
  ON a.domain_key = w.domain_key
 AND a.day BETWEEN DATE '1970-01-01' + w.from_day AND DATE '1970-01-01' + w.to_day
WHERE a.day BETWEEN DATE '1970-01-01' + $from_day AND DATE '1970-01-01' + $to_day
ORDER BY a.domain_key, day, channel, entity_idx, prompt_idx
