DELETE FROM prompts WHERE id IN (SELECT id::UUID FROM stg_prompts)
