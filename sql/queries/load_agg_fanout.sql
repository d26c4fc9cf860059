-- One domain's fan-out aggregates per (day, channel, model, prompt, query), by prompt, query,
-- channel, then day.
-- Read by src/tables/cited-index.ts; every column DOUBLE NOT NULL. Parameters: $domain_key INTEGER.
SELECT ((day - DATE '1970-01-01'))::DOUBLE AS day,
       (channel)::DOUBLE AS channel,
       (model_key)::DOUBLE AS model_key,
       (prompt_idx)::DOUBLE AS prompt_idx,
       (query_idx)::DOUBLE AS query_idx,
       (analyses)::DOUBLE AS analyses
FROM agg_fanout WHERE domain_key = $domain_key ORDER BY prompt_idx, query_idx, channel, day, model_key
