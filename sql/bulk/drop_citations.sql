-- Drops a temp table of the empty-target bulk write (src/ingest/flat-bulk.ts).
DROP TABLE IF EXISTS bulk_citations
