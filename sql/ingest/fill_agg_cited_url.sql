-- Ingest step fill_agg_cited_url; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: clear_agg_cited_url, insert_analyses, insert_mentions, insert_citations.
-- Citations report aggregates of the affected days, per (day, channel, model, prompt, cited URL):
-- entries, citing analyses, those of them mentioning the brand, first and last answered_at, and the
-- latest entry with a title and with a page type (answered_at, then analysis id, then position), with
-- its rank among the day's rows of the URL tied on answered_at (whole days are refilled, so the
-- ranks of a day stay consistent). In two steps: per (analysis, URL) first (its entries, its last
-- titled and page-typed entry), so the rows need no count(DISTINCT). The brand mentions are read
-- from the affected days only (a mention has its analysis's domain and day): joined on the analysis
-- alone, every stored brand mention was hashed on each call.
INSERT INTO agg_cited_url
WITH per_analysis AS (
  SELECT c.analysis_key, c.url_idx, count(*)::INTEGER AS entries,
         arg_max(c.title_idx, c.ord) FILTER (WHERE c.title_idx IS NOT NULL) AS title_idx,
         max(c.ord) FILTER (WHERE c.title_idx IS NOT NULL) AS title_ord,
         arg_max(c.page_type_idx, c.ord) FILTER (WHERE c.page_type_idx IS NOT NULL) AS page_type_idx,
         max(c.ord) FILTER (WHERE c.page_type_idx IS NOT NULL) AS page_type_ord
  FROM citations c
  SEMI JOIN stg_affected s ON c.domain_key = s.domain_key AND c.day = s.day
  GROUP BY c.analysis_key, c.url_idx
),
g AS (
  SELECT a.domain_key, a.day, a.channel, a.model_key, a.prompt_idx, x.url_idx,
         sum(x.entries)::INTEGER AS entries, count(*)::INTEGER AS analyses,
         count(b.analysis_key)::INTEGER AS brand,
         (min(epoch_ms(a.answered_at)) - epoch_ms(a.day::TIMESTAMP))::INTEGER AS first_off,
         (max(epoch_ms(a.answered_at)) - epoch_ms(a.day::TIMESTAMP))::INTEGER AS last_off,
         max({'ms': epoch_ms(a.answered_at), 'aid': a.id, 'ord': x.title_ord, 'idx': x.title_idx})
           FILTER (WHERE x.title_idx IS NOT NULL) AS title,
         max({'ms': epoch_ms(a.answered_at), 'aid': a.id, 'ord': x.page_type_ord, 'idx': x.page_type_idx})
           FILTER (WHERE x.page_type_idx IS NOT NULL) AS page_type
  FROM per_analysis x
  JOIN analyses a ON a.analysis_key = x.analysis_key
  LEFT JOIN (
    SELECT m.analysis_key FROM mentions m
    SEMI JOIN stg_affected s ON m.domain_key = s.domain_key AND m.day = s.day
    WHERE m.entity_idx = 0
  ) b ON b.analysis_key = x.analysis_key
  GROUP BY a.domain_key, a.day, a.channel, a.model_key, a.prompt_idx, x.url_idx
)
SELECT domain_key, day, channel, model_key, prompt_idx, url_idx, entries, analyses, brand, first_off, last_off,
       (title.ms - epoch_ms(day::TIMESTAMP))::INTEGER, title.idx,
       CASE WHEN title IS NOT NULL THEN
         rank() OVER (PARTITION BY domain_key, day, url_idx, title.ms ORDER BY title.aid, title.ord) END::INTEGER,
       (page_type.ms - epoch_ms(day::TIMESTAMP))::INTEGER, page_type.idx,
       CASE WHEN page_type IS NOT NULL THEN
         rank() OVER (PARTITION BY domain_key, day, url_idx, page_type.ms ORDER BY page_type.aid, page_type.ord)
       END::INTEGER
FROM g
ORDER BY domain_key, day
