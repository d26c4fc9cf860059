-- Ingest step clear_agg_citation_day; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: affected_old, affected_new, affected_site.
-- Drops the agg_citation_day rows of the affected days; they are recomputed from the raw tables next.
DELETE FROM agg_citation_day USING stg_affected s WHERE agg_citation_day.domain_key = s.domain_key AND agg_citation_day.day = s.day
