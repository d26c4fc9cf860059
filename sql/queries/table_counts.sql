-- Row counts of the stored tables, one column each.
SELECT (SELECT count(*) FROM teams)::INTEGER AS teams,
       (SELECT count(*) FROM domains)::INTEGER AS domains,
       (SELECT count(*) FROM prompts)::INTEGER AS prompts,
       (SELECT count(*) FROM competitors)::INTEGER AS competitors,
       (SELECT count(*) FROM themes)::INTEGER AS themes,
       (SELECT count(*) FROM models)::INTEGER AS models,
       (SELECT count(*) FROM analyses)::INTEGER AS analyses,
       (SELECT count(*) FROM mentions)::INTEGER AS mentions,
       (SELECT count(*) FROM citations)::INTEGER AS citations,
       (SELECT count(*) FROM theme_occurrences)::INTEGER AS theme_occurrences,
       (SELECT count(*) FROM agg_prompt_day)::INTEGER AS agg_prompt_day,
       (SELECT count(*) FROM agg_entity_day)::INTEGER AS agg_entity_day,
       (SELECT count(*) FROM agg_theme_day)::INTEGER AS agg_theme_day
