-- Export of the flat table themes (semantics.md 1.2) as Parquet, hive-partitioned by domain_id.
-- Parameters: $path VARCHAR (file or directory), $all BOOLEAN, $domain_ids VARCHAR[] (used when not $all).
COPY (
  SELECT t.id::VARCHAR AS id, d.id::VARCHAR AS domain_id, t.name, t.custom_name, t.archived, t.sentiment,
         t.created_at
  FROM themes t JOIN domains d USING (domain_key)
  WHERE $all OR list_contains($domain_ids, d.id::VARCHAR)
  ORDER BY domain_id, id
) TO $path (FORMAT parquet, PARTITION_BY (domain_id), OVERWRITE_OR_IGNORE true)
