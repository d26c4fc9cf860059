-- Ingest step drop_repeated_analysis_responses; phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses.
-- The answer texts the record path appended straight into analysis_responses (src/ingest/call.ts)
-- are keyed by their record (the call's first free key + seq) and carry their domain handle h as
-- domain_key -1 - h (no stored row has a negative domain_key). A repeated analysis keeps the text
-- of its last record, or none when that record has none: the other records' rows go (a call with
-- distinct analysis ids has none to drop).
DELETE FROM analysis_responses
WHERE domain_key < 0 AND analysis_key NOT IN (SELECT analysis_key FROM stg_final)
