-- Run in the steps' script before the aggregates phase (src/ingest/pipeline.ts, runIngestSteps),
-- after affected_chunks. Parameters: none.
-- Keeps only the first chunk's (domain, day) pairs in stg_affected (all of them when the call's
-- pairs make one chunk), so that the first chunk's aggregates run in the same script.
DELETE FROM stg_affected s
WHERE EXISTS (
  SELECT 1 FROM stg_affected_all a WHERE a.domain_key = s.domain_key AND a.day = s.day AND a.chunk > 0
)
