-- Schema version 5: the record additions of docs/API.md, "Ingest: records": an analysis's country
-- and answer text, a prompt's topic and tags. Stored data is kept: the new columns read as null
-- (tags as the empty list) for the rows of an older file.
--
-- analyses.country: two upper-case ASCII letters (ISO 3166-1 alpha-2), or null.
ALTER TABLE analyses ADD COLUMN IF NOT EXISTS country VARCHAR;

-- prompts.topic: trimmed, 1-100 UTF-16 code units, or null. prompts.tags: trimmed, distinct,
-- sorted by UTF-16 code units, never null (an older row gets the empty list here and a new one is
-- always written with its list: no DEFAULT, as DuckDB 1.5 fails to replay from a WAL an ADD
-- COLUMN whose default is a list). Tags live on the prompt row, so re-ingesting a prompt replaces
-- them and deleting it deletes them, with no table of their own to keep in step.
ALTER TABLE prompts ADD COLUMN IF NOT EXISTS topic VARCHAR;
ALTER TABLE prompts ADD COLUMN IF NOT EXISTS tags VARCHAR[];
UPDATE prompts SET tags = [] WHERE tags IS NULL;

-- An analysis's answer text, apart from the analyses table so that no report query reads it (one
-- row per analysis whose `response` is not null). Removed with its analysis by the ingest
-- pipeline's `replace` steps (re-ingest, delete records, retention).
CREATE TABLE IF NOT EXISTS analysis_responses (
  analysis_key BIGINT NOT NULL, domain_key INTEGER NOT NULL, response VARCHAR NOT NULL);
