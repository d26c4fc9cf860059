-- Export of the flat table teams (semantics.md 1.2) as Parquet.
-- Parameters: $path VARCHAR (file or directory), $all BOOLEAN, $domain_ids VARCHAR[] (used when not $all).
COPY (
  SELECT t.id::VARCHAR AS id, t.name, t.plan, t.developer_access
  FROM teams t
  WHERE $all OR t.id IN (SELECT d.team_id FROM domains d WHERE list_contains($domain_ids, d.id::VARCHAR))
  ORDER BY id
) TO $path (FORMAT parquet)
