-- Ingest step clear_agg_fanout; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: affected_old, affected_new, affected_site.
-- Drops the agg_fanout rows of the affected days; they are recomputed from the raw tables next.
DELETE FROM agg_fanout USING stg_affected s WHERE agg_fanout.domain_key = s.domain_key AND agg_fanout.day = s.day
