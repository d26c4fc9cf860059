-- Ingest step clear_agg_entity_prompt_day; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: affected_old, affected_new, affected_site.
-- Drops the agg_entity_prompt_day rows of the affected days; they are recomputed from the raw tables next.
DELETE FROM agg_entity_prompt_day USING stg_affected s WHERE agg_entity_prompt_day.domain_key = s.domain_key AND agg_entity_prompt_day.day = s.day
