-- Stores a new API key (only the SHA-256 of its secret).
-- Parameters: $id, $prefix, $key_hash, $team_id, $scope (JSON array of UUIDs), $allowed (JSON array or
-- NULL), $name (or NULL), $created_at (ISO timestamp).
INSERT INTO api_keys
SELECT $id::UUID, $prefix, $key_hash, $team_id::UUID, from_json($scope, '["VARCHAR"]')::UUID[],
       CASE WHEN $allowed IS NULL THEN NULL ELSE from_json($allowed, '["VARCHAR"]')::UUID[] END,
       $name, $created_at::TIMESTAMPTZ, NULL
