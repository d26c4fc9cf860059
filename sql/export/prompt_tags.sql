-- Export of the flat table prompt_tags (docs/API.md, "Ingest: records": prompt_id, tag; one row per
-- tag of a prompt, as stored) as Parquet, hive-partitioned by the prompt's domain_id.
-- Parameters: $path VARCHAR (file or directory), $all BOOLEAN, $domain_ids VARCHAR[] (used when not $all).
COPY (
  SELECT p.id::VARCHAR AS prompt_id, t.tag, d.id::VARCHAR AS domain_id
  FROM prompts p
  JOIN domains d USING (domain_key)
  CROSS JOIN unnest(p.tags) AS t(tag)
  WHERE $all OR list_contains($domain_ids, d.id::VARCHAR)
  ORDER BY domain_id, prompt_id, t.tag
) TO $path (FORMAT parquet, PARTITION_BY (domain_id), OVERWRITE_OR_IGNORE true)
