-- Export of the flat table theme_occurrences (semantics.md 1.2) as Parquet, hive-partitioned by the analysis's domain_id.
-- Parameters: $path VARCHAR (file or directory), $all BOOLEAN, $domain_ids VARCHAR[] (used when not $all).
COPY (
  SELECT a.id::VARCHAR AS analysis_id, t.id::VARCHAR AS theme_id, o.occurrences, d.id::VARCHAR AS domain_id
  FROM theme_occurrences o
  JOIN analyses a USING (analysis_key)
  JOIN domains d ON d.domain_key = o.domain_key
  JOIN themes t ON t.domain_key = o.domain_key AND t.theme_idx = o.theme_idx
  WHERE $all OR list_contains($domain_ids, d.id::VARCHAR)
  ORDER BY domain_id, analysis_id, theme_id
) TO $path (FORMAT parquet, PARTITION_BY (domain_id), OVERWRITE_OR_IGNORE true)
