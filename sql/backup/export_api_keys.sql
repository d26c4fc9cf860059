-- The API keys of a backup, as stored: the SHA-256 of each secret, never the secret. Revoked keys
-- are kept (the listing shows them). Parameters: $path VARCHAR (the Parquet file).
COPY (
  SELECT id::VARCHAR AS id, prefix, key_hash, team_id::VARCHAR AS team_id,
         scope_team_ids::VARCHAR[] AS scope_team_ids, allowed_domains::VARCHAR[] AS allowed_domains, name,
         created_at, revoked_at
  FROM api_keys
  ORDER BY created_at, id
) TO $path (FORMAT parquet)
