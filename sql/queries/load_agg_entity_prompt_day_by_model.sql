-- The rows of agg_entity_prompt_day for one domain's analyses of one raw model, computed from the
-- raw tables (the reports' slower path for a raw model id; test/tables/aggregates-by-model.test.ts checks
-- they add up to the stored table over every model).
-- Columns: those of agg_entity_prompt_day in AGGREGATE_TABLES (src/tables/aggregates.ts), every
-- one DOUBLE NOT NULL, rows by day.
-- Parameters: $domain_key INTEGER, $model_key INTEGER.
SELECT ((m.day - DATE '1970-01-01'))::DOUBLE AS day,
       (m.channel)::DOUBLE AS channel,
       (m.entity_idx)::DOUBLE AS entity_idx,
       (m.prompt_idx)::DOUBLE AS prompt_idx,
       (count(*))::DOUBLE AS mentions,
       (coalesce(sum(m.position), 0))::DOUBLE AS pos_sum,
       (count(m.position))::DOUBLE AS pos_cnt
FROM mentions m
SEMI JOIN analyses a ON a.analysis_key = m.analysis_key AND a.model_key = $model_key
WHERE m.domain_key = $domain_key
GROUP BY m.day, m.channel, m.entity_idx, m.prompt_idx
ORDER BY m.day, m.channel, m.entity_idx, m.prompt_idx
