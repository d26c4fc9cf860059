-- Export of the flat table prompts (semantics.md 1.2, extensions 1; topic: docs/API.md, "Ingest:
-- records"; the tags are the table prompt_tags) as Parquet, hive-partitioned by
-- domain_id.
-- Parameters: $path VARCHAR (file or directory), $all BOOLEAN, $domain_ids VARCHAR[] (used when not $all).
COPY (
  SELECT p.id::VARCHAR AS id, d.id::VARCHAR AS domain_id, p.text, p.estimated_search_volume, p.created_at,
         p.topic
  FROM prompts p JOIN domains d USING (domain_key)
  WHERE $all OR list_contains($domain_ids, d.id::VARCHAR)
  ORDER BY domain_id, id
) TO $path (FORMAT parquet, PARTITION_BY (domain_id), OVERWRITE_OR_IGNORE true)
