-- Revokes a key. Parameters: $id UUID, $revoked_at (ISO timestamp).
UPDATE api_keys SET revoked_at = $revoked_at::TIMESTAMPTZ WHERE id = $id::UUID AND revoked_at IS NULL
