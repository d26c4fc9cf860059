-- Export of the flat table fanout_queries (extensions section 1: analysis_id, query; `ord` the
-- query's position in its analysis) as Parquet, hive-partitioned by the analysis's domain_id.
-- Parameters: $path VARCHAR (file or directory), $all BOOLEAN, $domain_ids VARCHAR[] (used when not $all).
COPY (
  SELECT a.id::VARCHAR AS analysis_id, t.text AS query, q.ord, d.id::VARCHAR AS domain_id
  FROM fanout_queries q
  JOIN analyses a USING (analysis_key)
  JOIN domains d ON d.domain_key = q.domain_key
  JOIN texts t ON t.domain_key = q.domain_key AND t.kind = 5 AND t.idx = q.query_idx
  WHERE $all OR list_contains($domain_ids, d.id::VARCHAR)
  ORDER BY domain_id, analysis_id, q.ord
) TO $path (FORMAT parquet, PARTITION_BY (domain_id), OVERWRITE_OR_IGNORE true)
