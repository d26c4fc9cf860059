-- One domain's analyses per (day, channel), by day. Parameters: $domain_key INTEGER.
-- Columns: day, channel, analyses.
SELECT ((day - DATE '1970-01-01'))::DOUBLE AS day,
       (channel)::DOUBLE AS channel,
       (analyses)::DOUBLE AS analyses
FROM agg_channel_day WHERE domain_key = $domain_key ORDER BY day, channel
