-- Ingest step affected_old; phase resolve (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: collect_old.
-- Days whose aggregates change because a stored analysis is replaced.
INSERT INTO stg_affected
SELECT DISTINCT a.domain_key, a.day FROM analyses a SEMI JOIN stg_old o ON a.analysis_key = o.analysis_key
