-- Ingest step fill_agg_cited_url; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: clear_agg_cited_url, insert_analyses, insert_mentions, insert_citations.
-- Citations report aggregates of the affected days, per (day, channel, model, prompt, cited URL):
-- entries, citing analyses, those of them mentioning the brand, first and last answered_at, and the
-- latest entry with a title and with a page type (answered_at, then analysis id, then position), with
-- its rank among the day's rows of the URL tied on answered_at (whole days are refilled, so the
-- ranks of a day stay consistent). The brand mentions are read from the affected days only (a
-- mention has its analysis's domain and day): joined on the analysis alone, every stored brand
-- mention was hashed on each call.
-- In integers, with no comparison of structs (bench/NOTES.md, s16 and s18):
-- - per (analysis, URL) first (its entries, its last titled and page-typed entry), so the rows need
--   no count(DISTINCT), and an analysis is one row of a group: the latest entry of a group is its
--   latest analysis's, and the position never decides between two rows;
-- - `r` numbers the analyses by (domain, day, answered_at in ms, id), so within a day "latest by
--   answered_at, then id" is the greatest r, its answered_at the greatest ms. One ordered numbering
--   over the chunk's analyses, not one per (domain, day): partitioned by day, the window ran a 64 MB
--   call out of memory in 4 of 10 runs (test/reliability/spill-sort.test.ts);
-- - a row's rank among its day's rows of the URL tied on answered_at is a rank over r; the windows
--   read g as it streams (ranking only the tied rows meant reading g twice, so holding it whole).
INSERT INTO agg_cited_url
WITH an AS (
  SELECT a.analysis_key, a.domain_key, a.day, a.channel, a.model_key, a.prompt_idx, epoch_ms(a.answered_at) AS ms,
         row_number() OVER (ORDER BY a.domain_key, a.day, epoch_ms(a.answered_at), a.id) AS r
  FROM analyses a
  SEMI JOIN stg_affected s ON a.domain_key = s.domain_key AND a.day = s.day
),
per_analysis AS (
  SELECT c.analysis_key, c.url_idx, count(*)::INTEGER AS entries,
         arg_max(c.title_idx, c.ord) FILTER (WHERE c.title_idx IS NOT NULL) AS title_idx,
         arg_max(c.page_type_idx, c.ord) FILTER (WHERE c.page_type_idx IS NOT NULL) AS page_type_idx
  FROM citations c
  SEMI JOIN stg_affected s ON c.domain_key = s.domain_key AND c.day = s.day
  GROUP BY c.analysis_key, c.url_idx
),
g AS (
  SELECT an.domain_key, an.day, an.channel, an.model_key, an.prompt_idx, x.url_idx,
         sum(x.entries)::INTEGER AS entries, count(*)::INTEGER AS analyses,
         count(b.analysis_key)::INTEGER AS brand,
         min(an.ms) AS first_ms, max(an.ms) AS last_ms,
         max(an.ms) FILTER (WHERE x.title_idx IS NOT NULL) AS t_ms,
         max(an.r) FILTER (WHERE x.title_idx IS NOT NULL) AS t_r,
         arg_max(x.title_idx, an.r) FILTER (WHERE x.title_idx IS NOT NULL) AS t_idx,
         max(an.ms) FILTER (WHERE x.page_type_idx IS NOT NULL) AS p_ms,
         max(an.r) FILTER (WHERE x.page_type_idx IS NOT NULL) AS p_r,
         arg_max(x.page_type_idx, an.r) FILTER (WHERE x.page_type_idx IS NOT NULL) AS p_idx
  FROM per_analysis x
  JOIN an ON an.analysis_key = x.analysis_key
  LEFT JOIN (
    SELECT m.analysis_key FROM mentions m
    SEMI JOIN stg_affected s ON m.domain_key = s.domain_key AND m.day = s.day
    WHERE m.entity_idx = 0
  ) b ON b.analysis_key = x.analysis_key
  GROUP BY an.domain_key, an.day, an.channel, an.model_key, an.prompt_idx, x.url_idx
)
SELECT domain_key, day, channel, model_key, prompt_idx, url_idx, entries, analyses, brand,
       (first_ms - epoch_ms(day::TIMESTAMP))::INTEGER, (last_ms - epoch_ms(day::TIMESTAMP))::INTEGER,
       (t_ms - epoch_ms(day::TIMESTAMP))::INTEGER, t_idx,
       CASE WHEN t_ms IS NOT NULL THEN rank() OVER (PARTITION BY domain_key, day, url_idx, t_ms ORDER BY t_r) END::INTEGER,
       (p_ms - epoch_ms(day::TIMESTAMP))::INTEGER, p_idx,
       CASE WHEN p_ms IS NOT NULL THEN rank() OVER (PARTITION BY domain_key, day, url_idx, p_ms ORDER BY p_r) END::INTEGER
FROM g
ORDER BY domain_key, day
