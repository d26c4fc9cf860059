-- Ingest step final_analyses (variant for distinct
-- analysis ids); phase resolve (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: the staging tables and handle maps (IngestCall.stage).
-- A row's key is base + seq: base, the first free analysis_key, is stg_call's (one row).
-- final_analyses for a call whose analysis ids are all distinct (the caller knows): the same
-- rows without the de-duplication join.
INSERT INTO stg_final
SELECT s.seq, (SELECT base FROM stg_call) + s.seq, s.id::UUID, dm.domain_key, pm.prompt_idx, s.channel, mm.model_key,
       s.answered_ms::BIGINT, DATE '1970-01-01' + s.day, s.country
FROM stg_analyses s
JOIN stg_domain_map dm ON dm.h = s.domain_h
JOIN stg_prompt_map pm ON pm.h = s.prompt_h
JOIN stg_model_map mm ON mm.h = s.model_h
