-- One domain's cited-URL aggregates per (day, channel, model, prompt, URL), by day, with the first
-- and last answered_at as milliseconds into the day, and the latest titled (page-typed) entry of
-- each row as its text index and its rank among the domain's rows (0: none), so the latest over
-- any set of rows is the one of highest rank. Read by src/tables/cited-index.ts; every column
-- DOUBLE NOT NULL. Parameters: $domain_key INTEGER.
SELECT ((day - DATE '1970-01-01'))::DOUBLE AS day,
       (channel)::DOUBLE AS channel,
       (model_key)::DOUBLE AS model_key,
       (prompt_idx)::DOUBLE AS prompt_idx,
       (url_idx)::DOUBLE AS url_idx,
       (entries)::DOUBLE AS entries,
       (analyses)::DOUBLE AS analyses,
       (brand)::DOUBLE AS brand,
       (first_ms - (day - DATE '1970-01-01') * 86400000)::DOUBLE AS first_off,
       (last_ms - (day - DATE '1970-01-01') * 86400000)::DOUBLE AS last_off,
       (coalesce(title.idx, -1))::DOUBLE AS title_idx,
       (CASE WHEN title IS NULL THEN 0
             ELSE dense_rank() OVER (ORDER BY title.ms NULLS LAST, title.aid, title.ord) END)::DOUBLE AS title_rank,
       (coalesce(page_type.idx, -1))::DOUBLE AS page_type_idx,
       (CASE WHEN page_type IS NULL THEN 0
             ELSE dense_rank() OVER (ORDER BY page_type.ms NULLS LAST, page_type.aid, page_type.ord) END)::DOUBLE
         AS page_type_rank
FROM agg_cited_url WHERE domain_key = $domain_key
ORDER BY day, channel, model_key, prompt_idx, url_idx
