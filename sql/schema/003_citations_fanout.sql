-- Schema version 3: the record additions of citations (title, page type) and fan-out queries, and
-- the aggregates of the citations, cited-domains and fan-out reports.
--
-- texts: per domain, dictionaries of the strings those reports group by, each entry with a stable
-- index (never reused): kind 1 = a cited URL's identity (the WHATWG serialization without the
-- fragment; `host` its compared host), 2 = a cited host, 3 = a citation title, 4 = a page type,
-- 5 = a fan-out query (trimmed).
CREATE TABLE IF NOT EXISTS texts (
  domain_key INTEGER NOT NULL, kind UTINYINT NOT NULL, idx INTEGER NOT NULL, text VARCHAR NOT NULL,
  host VARCHAR);

-- A citation's position in its analysis's list, and its texts (set for every row by this release;
-- a file of an older schema version is filled in by the migration step of src/db/migrate.ts).
ALTER TABLE citations ADD COLUMN IF NOT EXISTS ord INTEGER;
ALTER TABLE citations ADD COLUMN IF NOT EXISTS url_idx INTEGER;
ALTER TABLE citations ADD COLUMN IF NOT EXISTS host_idx INTEGER;
ALTER TABLE citations ADD COLUMN IF NOT EXISTS title_idx INTEGER;
ALTER TABLE citations ADD COLUMN IF NOT EXISTS page_type_idx INTEGER;

-- An analysis's fan-out queries, trimmed, in their order (duplicates kept as given).
CREATE TABLE IF NOT EXISTS fanout_queries (
  analysis_key BIGINT NOT NULL, domain_key INTEGER NOT NULL, day DATE NOT NULL, ord INTEGER NOT NULL,
  query_idx INTEGER NOT NULL);

-- Per (domain, day, channel, model, prompt, cited URL): citation entries, citing analyses, those
-- mentioning the brand, the first and last answered_at (milliseconds into the day), and the latest
-- entry with a title (by answered_at, then analysis id, then position in the analysis): its
-- answered_at (ms into the day), its title, and `title_tie`, its rank among the rows of the same day
-- and URL whose latest titled entry has the same answered_at (1 = the smallest analysis id, then
-- position). So the latest title over any rows of a URL is the one of the row with the greatest
-- (day, title_off, title_tie). The same for page types.
CREATE TABLE IF NOT EXISTS agg_cited_url (
  domain_key INTEGER NOT NULL, day DATE NOT NULL, channel UTINYINT NOT NULL, model_key INTEGER NOT NULL,
  prompt_idx INTEGER NOT NULL, url_idx INTEGER NOT NULL, entries INTEGER NOT NULL, analyses INTEGER NOT NULL,
  brand INTEGER NOT NULL, first_off INTEGER NOT NULL, last_off INTEGER NOT NULL,
  title_off INTEGER, title_idx INTEGER, title_tie INTEGER,
  page_type_off INTEGER, page_type_idx INTEGER, page_type_tie INTEGER);

-- Per (domain, day, channel, model, cited host): citation entries and citing analyses.
CREATE TABLE IF NOT EXISTS agg_cited_host (
  domain_key INTEGER NOT NULL, day DATE NOT NULL, channel UTINYINT NOT NULL, model_key INTEGER NOT NULL,
  host_idx INTEGER NOT NULL, entries INTEGER NOT NULL, analyses INTEGER NOT NULL);

-- Per (domain, day, channel, model, prompt, fan-out query): analyses emitting the query.
CREATE TABLE IF NOT EXISTS agg_fanout (
  domain_key INTEGER NOT NULL, day DATE NOT NULL, channel UTINYINT NOT NULL, model_key INTEGER NOT NULL,
  prompt_idx INTEGER NOT NULL, query_idx INTEGER NOT NULL, analyses INTEGER NOT NULL);
