-- Ingest step clear_agg_cited_url; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: affected_old, affected_new, affected_site.
-- Drops the agg_cited_url rows of the affected days; they are recomputed from the raw tables next.
DELETE FROM agg_cited_url USING stg_affected s WHERE agg_cited_url.domain_key = s.domain_key AND agg_cited_url.day = s.day
