-- Ingest step insert_texts; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: call_texts.
-- Adds the call's new texts to the per-domain dictionaries (table texts, sql/schema/003).
INSERT INTO texts (domain_key, kind, idx, text, host, h)
SELECT domain_key, kind, idx, text, host, h FROM stg_texts WHERE fresh
