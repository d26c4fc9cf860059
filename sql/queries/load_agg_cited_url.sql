-- One domain's cited-URL aggregates per (day, channel, model, prompt, URL), by URL then day: the
-- first and last answered_at and the latest titled (page-typed) entry's answered_at in milliseconds
-- into the day (-1: no such entry), its text index (-1: none) and tie rank (0: none; see
-- agg_cited_url in sql/schema/003_citations_fanout.sql). Read by src/tables/cited-index.ts; every
-- column INTEGER NOT NULL (copied as Int32Arrays). Parameters: $domain_key INTEGER.
SELECT (day - DATE '1970-01-01')::INTEGER AS day,
       channel::INTEGER AS channel,
       model_key,
       url_idx,
       prompt_idx,
       entries,
       analyses,
       brand,
       first_off,
       last_off,
       coalesce(title_off, -1) AS title_off,
       coalesce(title_idx, -1) AS title_idx,
       coalesce(title_tie, 0) AS title_tie,
       coalesce(page_type_off, -1) AS page_type_off,
       coalesce(page_type_idx, -1) AS page_type_idx,
       coalesce(page_type_tie, 0) AS page_type_tie
FROM agg_cited_url WHERE domain_key = $domain_key
ORDER BY url_idx, day
