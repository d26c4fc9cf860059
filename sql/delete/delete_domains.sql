-- Deletion step delete_domains; phase delete (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- The deleted domains (those of deleted teams included).
DELETE FROM domains WHERE domain_key IN (SELECT domain_key FROM del_domains)
