-- One domain's cited-host aggregates per (day, channel, model, host), by day. Read by
-- src/tables/cited-index.ts; every column INTEGER NOT NULL. Parameters: $domain_key INTEGER.
SELECT (day - DATE '1970-01-01')::INTEGER AS day,
       channel::INTEGER AS channel,
       model_key,
       host_idx,
       entries,
       analyses
FROM agg_cited_host WHERE domain_key = $domain_key ORDER BY day
