-- Commits the early steps' transaction (src/ingest/pipeline.ts, EARLY_COMMIT): it wrote only the
-- call's temp tables (stg_final, stg_texts, stg_citation_rows; a flat import's bulk_* tables), whose
-- rows DuckDB then scans on every thread. The call's own transaction opens next
-- (sql/call/begin.sql) and is the one whose COMMIT makes the call durable.
COMMIT
