-- Export of the flat table citations (semantics.md 1.2) as Parquet, hive-partitioned by the analysis's domain_id.
-- Parameters: $path VARCHAR (file or directory), $all BOOLEAN, $domain_ids VARCHAR[] (used when not $all).
COPY (
  SELECT a.id::VARCHAR AS analysis_id, c.url, d.id::VARCHAR AS domain_id
  FROM citations c
  JOIN analyses a USING (analysis_key)
  JOIN domains d ON d.domain_key = c.domain_key
  WHERE $all OR list_contains($domain_ids, d.id::VARCHAR)
  ORDER BY domain_id, analysis_id
) TO $path (FORMAT parquet, PARTITION_BY (domain_id), OVERWRITE_OR_IGNORE true)
