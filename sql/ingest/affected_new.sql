-- Ingest step affected_new; phase resolve (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses.
-- Days whose aggregates change because new analyses arrive.
INSERT INTO stg_affected SELECT DISTINCT domain_key, day FROM stg_final
