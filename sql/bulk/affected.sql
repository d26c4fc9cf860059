-- The empty-target bulk write (src/ingest/flat-bulk.ts): every (domain, day) of the import's
-- analyses, whose aggregates are then built once from the stored rows. Parameters: none.
INSERT INTO stg_affected SELECT DISTINCT domain_key, day FROM bulk_analyses
