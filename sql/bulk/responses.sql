-- The empty-target bulk write (src/ingest/flat-bulk.ts): the answer texts of the analyses that
-- have one, as stage_responses and insert_analysis_responses_unique do. Runs after bulk/analyses.
INSERT INTO analysis_responses
SELECT analysis_key, domain_key, response FROM bulk_analyses WHERE response IS NOT NULL ORDER BY analysis_key
