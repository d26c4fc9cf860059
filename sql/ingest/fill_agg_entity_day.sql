-- Ingest step fill_agg_entity_day; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: clear_agg_entity_day, insert_mentions.
-- One mention row per (analysis, entity), so count(*) is the number of analyses mentioning it.
-- sent_sum is exact fixed point (sentiment_fixed, sql/schema/004_exact_sentiment.sql): order-free.
INSERT INTO agg_entity_day
SELECT m.domain_key, m.day, m.channel, m.entity_idx,
       count(*)::INTEGER, coalesce(sum(m.position), 0)::BIGINT, count(m.position)::INTEGER,
       coalesce(sum(sentiment_fixed(m.sentiment)), 0)::HUGEINT, count(m.sentiment)::INTEGER
FROM mentions m
SEMI JOIN stg_affected s ON m.domain_key = s.domain_key AND m.day = s.day
GROUP BY m.domain_key, m.day, m.channel, m.entity_idx
ORDER BY m.domain_key, m.day, m.channel, m.entity_idx
