-- Restores the API keys of a backup into a new database (hashes as stored, revocations kept).
-- Parameters: $path VARCHAR (the backup's api_keys.parquet).
INSERT INTO api_keys
SELECT id::UUID, prefix, key_hash, team_id::UUID, scope_team_ids::UUID[], allowed_domains::UUID[], name,
       created_at::TIMESTAMPTZ, revoked_at::TIMESTAMPTZ
FROM read_parquet($path)
