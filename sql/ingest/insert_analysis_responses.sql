-- Ingest step insert_analysis_responses; phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses, delete_old_analysis_responses.
-- Inserts the answer texts of the call's final analyses (a repeated analysis keeps the text of its
-- last record, or none when that record has none).
INSERT INTO analysis_responses
SELECT f.analysis_key, f.domain_key, r.response
FROM stg_responses r
JOIN stg_final f ON f.seq = r.seq
