INSERT INTO competitors SELECT domain_key, entity_idx, id::UUID, name, website FROM stg_competitors
