-- Stages the answer texts of a checked flat import (src/ingest/flat-sql.ts), as the record path
-- would: one per analyses row whose response is not null (seq: its 0-based row), with the
-- handle of its domain. Runs after stage_analyses.sql.
INSERT INTO stg_responses
SELECT a.rn - 1, d.h, a.response
FROM flat_analyses a
JOIN h_domain d ON d.id = lower(a.domain_id)
WHERE a.response IS NOT NULL
ORDER BY a.rn
