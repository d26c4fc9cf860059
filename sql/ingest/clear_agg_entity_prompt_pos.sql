-- Ingest step clear_agg_entity_prompt_pos; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: affected_old, affected_new, affected_site.
-- Drops the agg_entity_prompt_pos rows of the affected days; they are recomputed from the raw tables next.
DELETE FROM agg_entity_prompt_pos USING stg_affected s WHERE agg_entity_prompt_pos.domain_key = s.domain_key AND agg_entity_prompt_pos.day = s.day
