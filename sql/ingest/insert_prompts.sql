-- Ingest step insert_prompts; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: delete_prompts.
-- Inserts the call's prompts.
INSERT INTO prompts SELECT domain_key, prompt_idx, id::UUID, text, estimated_search_volume FROM stg_prompts
