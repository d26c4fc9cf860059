-- Read at the end of the steps' script (src/ingest/pipeline.ts, runIngestSteps). Parameters: none.
-- One row: the rows the call stored in each fact table (their analysis keys are base + seq, at or
-- above stg_call's base, which no earlier row has), and the last chunk of affected (domain, day)
-- pairs (0: the aggregates of every affected pair already ran); then, as three lists in the order of
-- domain_key, the rows of sql/ingest/affected_domains.sql (read when the call made one chunk).
WITH c AS (SELECT base FROM stg_call)
SELECT (SELECT count(*) FROM analyses t, c WHERE t.analysis_key >= c.base)::INTEGER AS analyses,
       (SELECT count(*) FROM mentions t, c WHERE t.analysis_key >= c.base)::INTEGER AS mentions,
       (SELECT count(*) FROM citations t, c WHERE t.analysis_key >= c.base)::INTEGER AS citations,
       (SELECT count(*) FROM theme_occurrences t, c WHERE t.analysis_key >= c.base)::INTEGER
         AS theme_occurrences,
       (SELECT count(*) FROM fanout_queries t, c WHERE t.analysis_key >= c.base)::INTEGER AS fanout_queries,
       (SELECT coalesce(max(chunk), -1) FROM stg_affected_all)::INTEGER AS chunks,
       (SELECT list(domain_key ORDER BY domain_key) FROM stg_affected_domains) AS affected_domains,
       (SELECT list(from_day ORDER BY domain_key) FROM stg_affected_domains) AS affected_from,
       (SELECT list(to_day ORDER BY domain_key) FROM stg_affected_domains) AS affected_to
