-- Stages the analyses of a checked flat import (src/ingest/flat-sql.ts), as the record path
-- would: one per analyses row (seq: its 0-based row), the id in lower case, the instant to the
-- millisecond (finer digits truncated, as Date.parse does), handles from the h_* tables, the
-- country in upper case.
-- Parameters: $channels VARCHAR[] (the channel's position is its code).
INSERT INTO stg_analyses
SELECT a.rn - 1, lower(a.id), d.h, p.h, list_position($channels, a.channel)::UTINYINT, m.h, a.ms,
       floor(a.ms / 86400000)::INTEGER, upper(a.country)
-- The instant as a column of a projection (a LATERAL subquery here cost a join of its own).
FROM (SELECT *, epoch_ms(regexp_replace(answered_at, '(\.\d{3})\d+', '\1')::TIMESTAMPTZ)::DOUBLE AS ms
      FROM flat_analyses) a
JOIN h_domain d ON d.id = lower(a.domain_id)
JOIN h_prompt p ON p.id = lower(a.prompt_id)
JOIN h_model m ON m.id = a.model
ORDER BY a.rn;
