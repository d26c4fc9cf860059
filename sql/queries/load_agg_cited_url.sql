-- One domain's cited-URL aggregates per (day, channel, model, prompt, URL), by URL then day, with the first
-- and last answered_at and the latest titled (page-typed) entry's answered_at as milliseconds into
-- the day (-1: no such entry), its text index (-1: none) and tie rank (0: none; see agg_cited_url in
-- sql/schema/002_citations_fanout.sql). Read by src/tables/cited-index.ts; every column DOUBLE NOT
-- NULL. Parameters: $domain_key INTEGER.
SELECT ((day - DATE '1970-01-01'))::DOUBLE AS day,
       (channel)::DOUBLE AS channel,
       (model_key)::DOUBLE AS model_key,
       (url_idx)::DOUBLE AS url_idx,
       (prompt_idx)::DOUBLE AS prompt_idx,
       (entries)::DOUBLE AS entries,
       (analyses)::DOUBLE AS analyses,
       (brand)::DOUBLE AS brand,
       (first_ms - (day - DATE '1970-01-01') * 86400000)::DOUBLE AS first_off,
       (last_ms - (day - DATE '1970-01-01') * 86400000)::DOUBLE AS last_off,
       (coalesce(title_ms - (day - DATE '1970-01-01') * 86400000, -1))::DOUBLE AS title_off,
       (coalesce(title_idx, -1))::DOUBLE AS title_idx,
       (coalesce(title_tie, 0))::DOUBLE AS title_tie,
       (coalesce(page_type_ms - (day - DATE '1970-01-01') * 86400000, -1))::DOUBLE AS page_type_off,
       (coalesce(page_type_idx, -1))::DOUBLE AS page_type_idx,
       (coalesce(page_type_tie, 0))::DOUBLE AS page_type_tie
FROM agg_cited_url WHERE domain_key = $domain_key
ORDER BY url_idx, day, channel, model_key, prompt_idx
