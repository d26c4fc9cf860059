-- Ingest step place_analysis_responses; phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: drop_repeated_analysis_responses, delete_old_analysis_responses.
-- The domain handle h of each answer text the record path appended (domain_key -1 - h, see
-- drop_repeated_analysis_responses) becomes its domain's key.
UPDATE analysis_responses SET domain_key = dm.domain_key
FROM stg_domain_map dm
WHERE analysis_responses.domain_key < 0 AND analysis_responses.domain_key = -1 - dm.h
