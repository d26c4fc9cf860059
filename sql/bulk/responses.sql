-- The empty-target bulk write (src/ingest/flat-bulk.ts): the answer texts of the analyses that
-- have one, as stage_responses and insert_analysis_responses_unique do. Runs after bulk/keys.
INSERT INTO analysis_responses
SELECT b.analysis_key, b.domain_key, f.response
FROM flat_analyses f
JOIN bulk_analyses b ON b.seq = f.rn - 1
WHERE f.response IS NOT NULL
ORDER BY b.analysis_key
