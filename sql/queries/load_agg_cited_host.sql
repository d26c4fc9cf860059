-- One domain's cited-host aggregates per (day, channel, model, host), by day. Read by
-- src/tables/cited-index.ts; every column DOUBLE NOT NULL. Parameters: $domain_key INTEGER.
SELECT ((day - DATE '1970-01-01'))::DOUBLE AS day,
       (channel)::DOUBLE AS channel,
       (model_key)::DOUBLE AS model_key,
       (host_idx)::DOUBLE AS host_idx,
       (entries)::DOUBLE AS entries,
       (analyses)::DOUBLE AS analyses
FROM agg_cited_host WHERE domain_key = $domain_key ORDER BY day, channel, model_key, host_idx
