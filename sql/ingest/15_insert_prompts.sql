INSERT INTO prompts SELECT domain_key, prompt_idx, id::UUID, text, estimated_search_volume FROM stg_prompts
