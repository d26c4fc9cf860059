INSERT INTO agg_entity_prompts
SELECT m.domain_key, m.day, m.channel, m.entity_idx, m.prompt_idx // 64 AS chunk,
       bit_or((1::UBIGINT) << (m.prompt_idx % 64)::UBIGINT)
FROM mentions m
SEMI JOIN stg_affected s ON m.domain_key = s.domain_key AND m.day = s.day
GROUP BY m.domain_key, m.day, m.channel, m.entity_idx, chunk
ORDER BY m.domain_key, m.day, m.channel, m.entity_idx, chunk
