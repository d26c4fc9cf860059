-- Run before the aggregates phase (src/ingest/pipeline.ts, runIngestSteps). Parameters: none
-- (analyses per chunk: stg_call's chunk_rows).
-- The affected (domain, day) pairs cut into chunks of about chunk_rows stored analyses each, in order of
-- (domain, day): the aggregate steps run once per chunk, so the memory of their joins, sorts and
-- windows is bounded by a chunk, not by the call (a pair is never split: one chunk may hold a
-- larger day whole).
CREATE OR REPLACE TEMP TABLE stg_affected_all AS
WITH sizes AS (
  SELECT s.domain_key, s.day, count(a.analysis_key) AS n
  FROM stg_affected s
  LEFT JOIN analyses a ON a.domain_key = s.domain_key AND a.day = s.day
  GROUP BY s.domain_key, s.day
)
SELECT domain_key, day,
       ((sum(n) OVER (ORDER BY domain_key, day ROWS UNBOUNDED PRECEDING) - n) // (SELECT chunk_rows FROM stg_call))::INTEGER AS chunk
FROM sizes
