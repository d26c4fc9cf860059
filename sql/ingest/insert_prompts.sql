-- Ingest step insert_prompts; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: delete_prompts.
-- Inserts the call's prompts, with their creation time, topic and tags (normalized when staged).
INSERT INTO prompts (domain_key, prompt_idx, id, text, estimated_search_volume, created_at, topic, tags)
SELECT domain_key, prompt_idx, id::UUID, text, estimated_search_volume,
       epoch_ms(created_ms::BIGINT)::TIMESTAMPTZ, topic, tags
FROM stg_prompts
