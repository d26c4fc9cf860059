-- One domain's theme occurrences per (day, channel, model, theme), by day.
-- Every column is DOUBLE, read straight into Float64Arrays. Parameters: $domain_key INTEGER. Columns: day, channel, model_key, theme_idx, occurrences.
SELECT ((day - DATE '1970-01-01'))::DOUBLE AS day,
       (channel)::DOUBLE AS channel,
       (model_key)::DOUBLE AS model_key,
       (theme_idx)::DOUBLE AS theme_idx,
       (occurrences)::DOUBLE AS occurrences
FROM agg_theme_day WHERE domain_key = $domain_key ORDER BY day, channel, model_key, theme_idx
