-- Run before each chunk of the aggregates phase, after clearing stg_affected (src/ingest/pipeline.ts,
-- runIngestSteps). Parameters: $chunk INTEGER (-1: every chunk, to restore the call's whole set).
-- The affected (domain, day) pairs of one chunk become stg_affected, which the aggregate steps read.
INSERT INTO stg_affected
SELECT domain_key, day FROM stg_affected_all WHERE $chunk = -1 OR chunk = $chunk
