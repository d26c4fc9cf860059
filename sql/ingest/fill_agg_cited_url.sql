-- Ingest step fill_agg_cited_url; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: clear_agg_cited_url, insert_analyses, insert_mentions, insert_citations.
-- Citations report aggregates of the affected days, per (day, channel, model, prompt, cited URL):
-- entries, citing analyses, those of them mentioning the brand, first and last answered_at, and the
-- latest entry with a title and with a page type (answered_at, then analysis id, then position), with
-- its rank among the day's rows of the URL tied on answered_at (whole days are refilled, so the
-- ranks of a day stay consistent).
INSERT INTO agg_cited_url
SELECT domain_key, day, channel, model_key, prompt_idx, url_idx, entries, analyses, brand,
       (first_ms - day_ms)::INTEGER, (last_ms - day_ms)::INTEGER,
       (title.ms - day_ms)::INTEGER, title.idx,
       CASE WHEN title IS NOT NULL THEN
         rank() OVER (PARTITION BY domain_key, day, url_idx, title.ms ORDER BY title.aid, title.ord) END::INTEGER,
       (page_type.ms - day_ms)::INTEGER, page_type.idx,
       CASE WHEN page_type IS NOT NULL THEN
         rank() OVER (PARTITION BY domain_key, day, url_idx, page_type.ms ORDER BY page_type.aid, page_type.ord)
       END::INTEGER
FROM (SELECT *, epoch_ms(day::TIMESTAMP) AS day_ms FROM (
  SELECT c.domain_key, c.day, a.channel, a.model_key, a.prompt_idx, c.url_idx,
         count(*)::INTEGER AS entries,
         count(DISTINCT c.analysis_key)::INTEGER AS analyses,
         count(DISTINCT c.analysis_key) FILTER (WHERE b.analysis_key IS NOT NULL)::INTEGER AS brand,
         min(epoch_ms(a.answered_at)) AS first_ms,
         max(epoch_ms(a.answered_at)) AS last_ms,
         max({'ms': epoch_ms(a.answered_at), 'aid': a.id, 'ord': c.ord, 'idx': c.title_idx})
           FILTER (WHERE c.title_idx IS NOT NULL) AS title,
         max({'ms': epoch_ms(a.answered_at), 'aid': a.id, 'ord': c.ord, 'idx': c.page_type_idx})
           FILTER (WHERE c.page_type_idx IS NOT NULL) AS page_type
  FROM citations c
  SEMI JOIN stg_affected s ON c.domain_key = s.domain_key AND c.day = s.day
  JOIN analyses a ON a.analysis_key = c.analysis_key
  LEFT JOIN mentions b ON b.analysis_key = c.analysis_key AND b.entity_idx = 0
  GROUP BY c.domain_key, c.day, a.channel, a.model_key, a.prompt_idx, c.url_idx
))
ORDER BY domain_key, day, channel, model_key, prompt_idx, url_idx
