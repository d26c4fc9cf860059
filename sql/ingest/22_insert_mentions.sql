INSERT INTO mentions
SELECT f.analysis_key, f.domain_key, f.day, f.channel, f.prompt_idx, em.entity_idx, m.position, m.sentiment
FROM stg_mentions m
JOIN stg_final f ON f.seq = m.seq
JOIN stg_entity_map em ON em.h = m.entity_h
