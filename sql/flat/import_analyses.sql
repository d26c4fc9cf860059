-- Reads the flat analyses table of a Parquet export for the bulk path (src/parquet.ts,
-- exportSource), as sql/import/analyses.sql does but without the answer texts: a response is kept
-- only when it is longer than the checks take (sql/flat/check.sql then hands the call over to the
-- record path, which names it); the others are appended to analysis_responses from the files once
-- the call is checked (sql/flat/append_responses.sql). A copy of the texts in temp tables made an
-- import of 511k answers spill at a 1 GB limit and run out of memory at 160 MB.
-- Parameters: $path VARCHAR, $response_max INTEGER.
CREATE OR REPLACE TEMP TABLE import_rows AS
SELECT row_number() OVER () AS rn, * FROM (
SELECT id::VARCHAR AS id, domain_id::VARCHAR AS domain_id, prompt_id::VARCHAR AS prompt_id, channel, model,
       strftime(answered_at::TIMESTAMPTZ, '%Y-%m-%dT%H:%M:%S.%gZ') AS answered_at,
       country::VARCHAR AS country,
       CASE WHEN strlen(response::VARCHAR) > $response_max THEN response::VARCHAR END AS response
FROM (
  SELECT NULL::VARCHAR AS country, NULL::VARCHAR AS response WHERE false
  UNION ALL BY NAME
  SELECT * FROM read_parquet($path, hive_partitioning = true)
)
)
