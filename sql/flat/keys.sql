-- Numbers each child row of a flat import (src/ingest/flat-sql.ts) with its analysis, once: seq,
-- the 0-based row of the analyses row whose id (lower case) its analysis_id names; null when none
-- does (an orphan). The checks, the handles and the staging then join on that integer. flat_ids
-- holds each distinct analysis id with its first row and how many rows carry it.
CREATE OR REPLACE TEMP TABLE flat_ids AS
SELECT lower(id) AS id, min(rn - 1)::INTEGER AS seq, count(*)::INTEGER AS n FROM flat_analyses GROUP BY ALL
