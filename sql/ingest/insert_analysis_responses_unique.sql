-- Ingest step insert_analysis_responses (variant for distinct
-- analysis ids); phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses, delete_old_analysis_responses.
-- A row's key is base + seq: base, the first free analysis_key, is stg_call's (one row).
-- insert_analysis_responses for a call whose analysis ids are all distinct (see insert_mentions_unique).
INSERT INTO analysis_responses
SELECT (SELECT base FROM stg_call) + r.seq, dm.domain_key, r.response
FROM stg_responses r
JOIN stg_domain_map dm ON dm.h = r.domain_h
