-- Schema version 10: the answer texts compressed with ZSTD. DuckDB picks FSST or DICT_FSST for a
-- text column on its own; for the answer texts (1-6 KB each) ZSTD is both cheaper to write (the
-- texts' share of an NDJSON ingest) and about half the bytes on disk (docs/ARCHITECTURE.md,
-- "Answer texts"). DuckDB 1.5 cannot change a column's compression in place, so the table is
-- rebuilt with every stored text (an empty one in a new file), and its index (version 8) with it.
-- The column's compression is not shown by duckdb_tables().sql; pragma_storage_info shows it.
CREATE TABLE analysis_responses_zstd (
  analysis_key BIGINT NOT NULL,
  domain_key INTEGER NOT NULL,
  response VARCHAR NOT NULL USING COMPRESSION zstd);
INSERT INTO analysis_responses_zstd SELECT analysis_key, domain_key, response FROM analysis_responses;
DROP INDEX IF EXISTS analysis_responses_key;
DROP TABLE analysis_responses;
ALTER TABLE analysis_responses_zstd RENAME TO analysis_responses;
CREATE INDEX analysis_responses_key ON analysis_responses (analysis_key);
