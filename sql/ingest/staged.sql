-- Read before the ingest steps (IngestCall.stage): whether the call's analysis ids are all distinct
-- (the steps' `unique` variants), and how many rows each staging table holds (a step whose inputs
-- are all empty is skipped: src/ingest/pipeline.ts).
SELECT (SELECT count(DISTINCT id) = count(*) FROM stg_analyses) AS "unique",
       (SELECT count(*) FROM stg_teams)::INTEGER AS teams,
       (SELECT count(*) FROM stg_domains)::INTEGER AS domains,
       (SELECT count(*) FROM stg_prompts)::INTEGER AS prompts,
       (SELECT count(*) FROM stg_competitors)::INTEGER AS competitors,
       (SELECT count(*) FROM stg_themes)::INTEGER AS themes,
       (SELECT count(*) FROM stg_models)::INTEGER AS models,
       (SELECT count(*) FROM stg_analyses)::INTEGER AS analyses,
       (SELECT count(*) FROM stg_mentions)::INTEGER AS mentions,
       (SELECT count(*) FROM stg_citations)::INTEGER AS citations,
       (SELECT count(*) FROM stg_theme_occ)::INTEGER AS theme_occ,
       (SELECT count(*) FROM stg_fanout)::INTEGER AS fanout,
       (SELECT count(*) FROM stg_responses)::INTEGER AS responses
