-- Ingest step insert_analyses; phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses, delete_old_analyses.
-- Inserts the call's final analyses. Its changed rows are the call's `analyses` count.
INSERT INTO analyses
SELECT analysis_key, id, domain_key, prompt_idx, channel, model_key, epoch_ms(answered_ms)::TIMESTAMPTZ, day,
       country
FROM stg_final
