-- Ingest step clear_agg_channel_prompts; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: affected_old, affected_new, affected_site.
-- Drops the agg_channel_prompts rows of the affected days; they are recomputed from the raw tables next.
DELETE FROM agg_channel_prompts USING stg_affected s WHERE agg_channel_prompts.domain_key = s.domain_key AND agg_channel_prompts.day = s.day
