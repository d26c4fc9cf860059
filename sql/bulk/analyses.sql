-- The empty-target bulk write (src/ingest/flat-bulk.ts): the analyses, as insert_analyses does.
-- Parameters: none. Runs after bulk/keys.
INSERT INTO analyses
SELECT analysis_key, id, domain_key, prompt_idx, channel, model_key, epoch_ms(answered_ms)::TIMESTAMPTZ, day,
       country
FROM bulk_analyses
ORDER BY analysis_key
