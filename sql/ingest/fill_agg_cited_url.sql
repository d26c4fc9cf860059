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
-- In integers, with no comparison of structs and no window over every row (bench/NOTES.md, s16):
-- - per (analysis, URL) first (its entries, its last titled and page-typed entry), so the rows need
--   no count(DISTINCT), and an analysis is one row of a group: the latest entry of a group is its
--   latest analysis's, and the position never decides between two rows;
-- - `r` numbers a day's analyses by (answered_at in ms, id), so "latest by answered_at, then id" is
--   the greatest r, its answered_at the greatest ms;
-- - a row's rank among the rows tied on answered_at is 1 unless another row of its day and URL has
--   the same one: only those rows are ranked by a window (ordered by r, which orders them by id),
--   the titles' (kind 1) and the page types' (kind 2) in one.
INSERT INTO agg_cited_url
WITH an AS (
  SELECT a.analysis_key, a.domain_key, a.day, a.channel, a.model_key, a.prompt_idx, epoch_ms(a.answered_at) AS ms,
         row_number() OVER (PARTITION BY a.domain_key, a.day ORDER BY epoch_ms(a.answered_at), a.id) AS r
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
),
latest AS (
  SELECT 1 AS kind, domain_key, day, url_idx, t_ms AS ms, t_r AS r FROM g WHERE t_ms IS NOT NULL
  UNION ALL
  SELECT 2 AS kind, domain_key, day, url_idx, p_ms AS ms, p_r AS r FROM g WHERE p_ms IS NOT NULL
),
tied AS (
  SELECT kind, domain_key, day, url_idx, r, rank() OVER (PARTITION BY kind, domain_key, day, url_idx, ms ORDER BY r) AS tie
  FROM latest
  SEMI JOIN (SELECT kind, domain_key, day, url_idx, ms FROM latest GROUP BY ALL HAVING count(*) > 1)
    USING (kind, domain_key, day, url_idx, ms)
)
SELECT g.domain_key, g.day, g.channel, g.model_key, g.prompt_idx, g.url_idx, g.entries, g.analyses, g.brand,
       (g.first_ms - epoch_ms(g.day::TIMESTAMP))::INTEGER, (g.last_ms - epoch_ms(g.day::TIMESTAMP))::INTEGER,
       (g.t_ms - epoch_ms(g.day::TIMESTAMP))::INTEGER, g.t_idx,
       CASE WHEN g.t_ms IS NOT NULL THEN coalesce(t.tie, 1) END::INTEGER,
       (g.p_ms - epoch_ms(g.day::TIMESTAMP))::INTEGER, g.p_idx,
       CASE WHEN g.p_ms IS NOT NULL THEN coalesce(p.tie, 1) END::INTEGER
FROM g
LEFT JOIN tied t ON t.kind = 1 AND t.domain_key = g.domain_key AND t.day = g.day AND t.url_idx = g.url_idx AND t.r = g.t_r
LEFT JOIN tied p ON p.kind = 2 AND p.domain_key = g.domain_key AND p.day = g.day AND p.url_idx = g.url_idx AND p.r = g.p_r
ORDER BY g.domain_key, g.day
