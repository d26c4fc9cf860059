-- The answer texts of a checked Parquet import (src/parquet.ts, exportSource), read from the files
-- straight into analysis_responses as the record path appends them (src/ingest/call.ts): keyed by
-- their analysis's row (the call's first free key + seq, flat_ids) with their domain's handle as
-- domain_key -1 - h; the ingest steps (or the bulk write) then place them. Runs where flat_ids is
-- and the files can be read. Parameters: $path VARCHAR, $base BIGINT, $domain_ids VARCHAR[] and
-- $domain_handles INTEGER[] (the call's domain handles, in the same order).
INSERT INTO analysis_responses
SELECT ($base + i.seq)::BIGINT, (-1 - d.h)::INTEGER, p.response::VARCHAR
FROM (
  SELECT NULL::VARCHAR AS response WHERE false
  UNION ALL BY NAME
  SELECT * FROM read_parquet($path, hive_partitioning = true)
) p
JOIN flat_ids i ON i.id = lower(p.id::VARCHAR)
JOIN (SELECT unnest($domain_ids) AS id, unnest($domain_handles) AS h) d ON d.id = lower(p.domain_id::VARCHAR)
WHERE p.response IS NOT NULL
