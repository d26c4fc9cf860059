-- The empty-target bulk write of a checked flat import (src/ingest/flat-bulk.ts): each analysis's
-- stored values, from flat_analyses, as stage_analyses and final_analyses_unique give them (the
-- key is $base + the row's 0-based number, the id in lower case, the instant to the millisecond,
-- the country in upper case), into bulk_analyses by row (seq): bulk/analyses inserts them and the
-- child rows join them. The answer texts stay in flat_analyses (bulk/responses reads them there:
-- a second copy of them ran an import of 511k answers out of memory at a 1 GB limit).
-- Parameters: $base BIGINT (the first free analysis_key), $channels VARCHAR[].
CREATE OR REPLACE TEMP TABLE bulk_analyses AS
SELECT a.rn - 1 AS seq, $base + a.rn - 1 AS analysis_key, lower(a.id)::UUID AS id, dm.domain_key,
       pm.prompt_idx, list_position($channels, a.channel)::UTINYINT AS channel, mm.model_key,
       a.ms::BIGINT AS answered_ms, DATE '1970-01-01' + floor(a.ms / 86400000)::INTEGER AS day,
       upper(a.country) AS country
FROM (SELECT *, epoch_ms(regexp_replace(answered_at, '(\.\d{3})\d+', '\1')::TIMESTAMPTZ)::DOUBLE AS ms
      FROM flat_analyses) a
JOIN h_domain d ON d.id = lower(a.domain_id)
JOIN stg_domain_map dm ON dm.h = d.h
JOIN h_prompt p ON p.id = lower(a.prompt_id)
JOIN stg_prompt_map pm ON pm.h = p.h
JOIN h_model m ON m.id = a.model
JOIN stg_model_map mm ON mm.h = m.h
