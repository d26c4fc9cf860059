-- Ingest step call_domains; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: the staging tables and handle maps (IngestCall.stage).
-- The call's domain keys as a range [lowest, highest], in the session variable va_call_domains,
-- read by call_texts: its next free index of each dictionary reads only the stored entries of the
-- domains in that range instead of all of them (2.3M on the serving probe's store: 12 ms of CPU
-- less per call). A variable, not a subquery: DuckDB folds it into a constant filter of the table
-- scan, where a subquery becomes a join applied after the whole table is read (bench/NOTES.md, "k10").
SET VARIABLE va_call_domains = (SELECT [min(domain_key), max(domain_key)] FROM stg_domain_map)
