-- Ingest step collect_old; phase resolve (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses.
-- Stored analyses that the call replaces.
INSERT INTO stg_old SELECT a.analysis_key FROM analyses a SEMI JOIN stg_final f ON a.id = f.id
