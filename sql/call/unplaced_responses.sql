-- The answer texts an ingest call appended and committed with its staging (src/ingest/call.ts,
-- `begin`) but never placed: their domain_key is still the negative handle, because the call was
-- refused after the staging's commit or the process stopped before the call's own commit. Run
-- after such a refusal's ROLLBACK and before every call (no stored text has a negative domain_key).
DELETE FROM analysis_responses WHERE domain_key < 0
