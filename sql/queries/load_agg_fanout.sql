-- One domain's fan-out aggregates per (day, channel, model, prompt, query), by prompt, query,
-- channel, then day. Read by src/tables/cited-index.ts; every column INTEGER NOT NULL.
-- Parameters: $domain_key INTEGER.
SELECT (day - DATE '1970-01-01')::INTEGER AS day,
       channel::INTEGER AS channel,
       model_key,
       prompt_idx,
       query_idx,
       analyses
FROM agg_fanout WHERE domain_key = $domain_key ORDER BY prompt_idx, query_idx, channel, day
