-- Stages the analyses of a checked flat import (src/ingest/flat-sql.ts), as the record path
-- would: one per analyses row (seq: its 0-based row), the id in lower case, the instant to the
-- millisecond (finer digits truncated, as Date.parse does), handles from the h_* tables, the
-- country in upper case.
-- Parameters: $channels VARCHAR[] (the channel's position is its code).
INSERT INTO stg_analyses
SELECT a.rn - 1, lower(a.id), d.h, p.h, list_position($channels, a.channel)::UTINYINT, m.h, t.ms,
       floor(t.ms / 86400000)::INTEGER, upper(a.country)
FROM flat_analyses a
CROSS JOIN LATERAL (SELECT epoch_ms(regexp_replace(a.answered_at, '(\.\d{3})\d+', '\1')::TIMESTAMPTZ)::DOUBLE AS ms) t
JOIN h_domain d ON d.id = lower(a.domain_id)
JOIN h_prompt p ON p.id = lower(a.prompt_id)
JOIN h_model m ON m.id = a.model
ORDER BY a.rn;
