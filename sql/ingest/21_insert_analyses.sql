INSERT INTO analyses
SELECT analysis_key, id, domain_key, prompt_idx, channel, model_key, epoch_ms(answered_ms)::TIMESTAMPTZ, day
FROM stg_final
