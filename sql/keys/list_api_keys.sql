-- Every API key, oldest first. Columns: the ApiKeyInfo fields (timestamps as ISO strings).
SELECT id::VARCHAR AS id, prefix, team_id::VARCHAR AS team_id, scope_team_ids::VARCHAR[] AS scope_team_ids,
       allowed_domains::VARCHAR[] AS allowed_domains, name,
       strftime(created_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS created_at,
       strftime(revoked_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS revoked_at
FROM api_keys
ORDER BY created_at, id
