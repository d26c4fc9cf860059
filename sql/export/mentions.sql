-- Export of the flat table mentions (semantics.md 1.2) as Parquet, hive-partitioned by the analysis's domain_id.
-- Parameters: $path VARCHAR (file or directory), $all BOOLEAN, $domain_ids VARCHAR[] (used when not $all).
COPY (
  SELECT a.id::VARCHAR AS analysis_id, CASE WHEN m.entity_idx = 0 THEN 'brand' ELSE c.id::VARCHAR END AS entity_id,
         m.position, m.sentiment, d.id::VARCHAR AS domain_id
  FROM mentions m
  JOIN analyses a USING (analysis_key)
  JOIN domains d ON d.domain_key = m.domain_key
  LEFT JOIN competitors c ON c.domain_key = m.domain_key AND c.entity_idx = m.entity_idx
  WHERE $all OR list_contains($domain_ids, d.id::VARCHAR)
  ORDER BY domain_id, analysis_id, m.entity_idx
) TO $path (FORMAT parquet, PARTITION_BY (domain_id), OVERWRITE_OR_IGNORE true)
