-- Ingest step fill_agg_theme_day; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: clear_agg_theme_day, insert_theme_occurrences.
-- Theme occurrences per (domain, day, channel, model, theme) of the affected days (the sentiment
-- reports).
INSERT INTO agg_theme_day
SELECT t.domain_key, t.day, t.channel, t.model_key, t.theme_idx, sum(t.occurrences)::BIGINT
FROM theme_occurrences t
SEMI JOIN stg_affected s ON t.domain_key = s.domain_key AND t.day = s.day
GROUP BY t.domain_key, t.day, t.channel, t.model_key, t.theme_idx
ORDER BY t.domain_key, t.day, t.channel, t.model_key, t.theme_idx
