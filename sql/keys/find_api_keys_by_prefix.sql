-- Candidate keys for a presented secret, by its public prefix; the caller compares hashes in
-- constant time. Parameters: $prefix VARCHAR.
SELECT id::VARCHAR AS id, prefix, key_hash, team_id::VARCHAR AS team_id,
       scope_team_ids::VARCHAR[] AS scope_team_ids, allowed_domains::VARCHAR[] AS allowed_domains, name,
       strftime(created_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS created_at,
       strftime(revoked_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS revoked_at
FROM api_keys
WHERE prefix = $prefix
