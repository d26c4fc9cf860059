-- Read at the end of the steps' script (src/ingest/pipeline.ts, runIngestSteps). Parameters: none.
-- One row: the rows the call stored in each fact table (their analysis keys are base + seq, at or
-- above stg_call's base, which no earlier row has), and the last chunk of affected (domain, day)
-- pairs (0: the aggregates of every affected pair already ran); then, as three lists in the order of
-- domain_key, the rows of sql/ingest/affected_domains.sql (read when the call made one chunk).
-- Each count joins stg_call (a scalar subquery in the select list scanned whole tables: 30x slower).
WITH
  n_analyses AS (SELECT count(*)::INTEGER AS n FROM analyses x JOIN stg_call c ON x.analysis_key >= c.base),
  n_mentions AS (SELECT count(*)::INTEGER AS n FROM mentions x JOIN stg_call c ON x.analysis_key >= c.base),
  n_citations AS (SELECT count(*)::INTEGER AS n FROM citations x JOIN stg_call c ON x.analysis_key >= c.base),
  n_theme_occurrences AS (SELECT count(*)::INTEGER AS n FROM theme_occurrences x JOIN stg_call c ON x.analysis_key >= c.base),
  n_fanout_queries AS (SELECT count(*)::INTEGER AS n FROM fanout_queries x JOIN stg_call c ON x.analysis_key >= c.base),
  k AS (SELECT coalesce(max(chunk), -1)::INTEGER AS chunks FROM stg_affected_all),
  d AS (
    SELECT list(domain_key ORDER BY domain_key) AS keys, list(from_day ORDER BY domain_key) AS from_days,
           list(to_day ORDER BY domain_key) AS to_days
    FROM stg_affected_domains
  )
SELECT n_analyses.n AS analyses, n_mentions.n AS mentions, n_citations.n AS citations,
       n_theme_occurrences.n AS theme_occurrences, n_fanout_queries.n AS fanout_queries,
       k.chunks,
       d.keys AS affected_domains, d.from_days AS affected_from, d.to_days AS affected_to
FROM n_analyses, n_mentions, n_citations, n_theme_occurrences, n_fanout_queries, k, d
