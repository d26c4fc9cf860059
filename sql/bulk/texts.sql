-- The empty-target bulk write (src/ingest/flat-bulk.ts): the import's texts into the per-domain
-- dictionaries with their key, as insert_texts does. Parameters: none. Runs after bulk/texts_index.
INSERT INTO texts (domain_key, kind, idx, text, host, h)
SELECT domain_key, kind, idx, text, host, text_key(text) FROM bulk_texts
