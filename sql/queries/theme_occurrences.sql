-- Occurrences per theme of one domain in the window after the model filter (archived themes are
-- dropped by the caller).
-- Parameters: $domain_key INTEGER, $start_day INTEGER, $end_day INTEGER, $channel INTEGER (0 = any),
-- $model_key INTEGER (-1 = any).
-- Columns: theme_idx, occurrences (DOUBLE).
SELECT theme_idx, sum(occurrences)::DOUBLE AS occurrences
FROM agg_theme_day
WHERE domain_key = $domain_key
  AND day BETWEEN DATE '1970-01-01' + $start_day AND DATE '1970-01-01' + $end_day
  AND ($channel = 0 OR channel = $channel)
  AND ($model_key = -1 OR model_key = $model_key)
GROUP BY theme_idx
