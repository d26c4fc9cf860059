-- Export of the flat table domains (semantics.md 1.2, extensions 1) as Parquet.
-- Parameters: $path VARCHAR (file or directory), $all BOOLEAN, $domain_ids VARCHAR[] (used when not $all).
COPY (
  SELECT d.id::VARCHAR AS id, d.team_id::VARCHAR AS team_id, d.brand_name, d.website, d.created_at
  FROM domains d
  WHERE $all OR list_contains($domain_ids, d.id::VARCHAR)
  ORDER BY id
) TO $path (FORMAT parquet)
