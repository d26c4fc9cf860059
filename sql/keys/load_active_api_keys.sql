-- Every key that is not revoked, with the SHA-256 of its secret: the engine's in-memory index,
-- loaded once at open. No parameters.
SELECT id::VARCHAR AS id, prefix, key_hash, team_id::VARCHAR AS team_id,
       scope_team_ids::VARCHAR[] AS scope_team_ids, allowed_domains::VARCHAR[] AS allowed_domains, name,
       strftime(created_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS created_at
FROM api_keys
WHERE revoked_at IS NULL
ORDER BY created_at, id
