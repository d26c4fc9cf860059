-- Ingest step insert_analysis_responses (variant for distinct
-- analysis ids); phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: $base BIGINT (the first free analysis_key; a row's key is $base + seq).
-- Runs after: final_analyses, delete_old_analysis_responses.
-- insert_analysis_responses for a call whose analysis ids are all distinct (see insert_mentions_unique).
INSERT INTO analysis_responses
SELECT $base + r.seq, dm.domain_key, r.response
FROM stg_responses r
JOIN stg_domain_map dm ON dm.h = r.domain_h
