INSERT INTO models SELECT model_key, model FROM stg_models
