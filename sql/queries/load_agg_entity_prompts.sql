-- One domain's prompt bitmasks per (day, channel, entity, chunk), by day, each 64-bit mask split
-- into two 32-bit halves. Parameters: $domain_key INTEGER.
-- Columns: day, channel, entity_idx, chunk, lo, hi.
SELECT ((day - DATE '1970-01-01'))::DOUBLE AS day,
       (channel)::DOUBLE AS channel,
       (entity_idx)::DOUBLE AS entity_idx,
       (chunk)::DOUBLE AS chunk,
       ((bits & 4294967295::UBIGINT))::DOUBLE AS lo,
       ((bits >> 32))::DOUBLE AS hi
FROM agg_entity_prompts WHERE domain_key = $domain_key ORDER BY day, channel, entity_idx, chunk
