-- Staging tables of one ingest call, private to the write connection. Rows carry `seq`, the
-- record's ordinal in the call, and per-call integer handles instead of UUID strings; the handles
-- are resolved to surrogate keys through the *_map tables once the whole call has been read.
CREATE OR REPLACE TEMP TABLE stg_teams (id VARCHAR, name VARCHAR, plan VARCHAR, developer_access BOOLEAN);
-- created_ms: a record's created_at in ms since the epoch (null when absent or null).
CREATE OR REPLACE TEMP TABLE stg_domains (
  domain_key INTEGER, id VARCHAR, team_id VARCHAR, brand_name VARCHAR, website VARCHAR, site_host VARCHAR,
  created_ms DOUBLE);
CREATE OR REPLACE TEMP TABLE stg_prompts (
  domain_key INTEGER, prompt_idx INTEGER, id VARCHAR, text VARCHAR, estimated_search_volume BIGINT,
  created_ms DOUBLE, topic VARCHAR, tags VARCHAR[]);
CREATE OR REPLACE TEMP TABLE stg_competitors (
  domain_key INTEGER, entity_idx INTEGER, id VARCHAR, name VARCHAR, website VARCHAR);
CREATE OR REPLACE TEMP TABLE stg_themes (
  domain_key INTEGER, theme_idx INTEGER, id VARCHAR, name VARCHAR, custom_name VARCHAR, archived BOOLEAN,
  sentiment VARCHAR, created_at DATE);
CREATE OR REPLACE TEMP TABLE stg_models (model_key INTEGER, model VARCHAR);
CREATE OR REPLACE TEMP TABLE stg_analyses (
  seq INTEGER, id VARCHAR, domain_h INTEGER, prompt_h INTEGER, channel UTINYINT, model_h INTEGER,
  answered_ms DOUBLE, day INTEGER, country VARCHAR);
-- Mentions, citations, theme occurrences and fan-out queries also carry their analysis's handles,
-- channel and day, so that a call without repeated analysis ids inserts them without joining
-- stg_final. A citation carries its position in the analysis (ord), its URL's entry in the call's
-- citation dictionary (stg_citation_dict, by h: the URL as written, its host, its identity, cited:
-- the URL without fragment, WHATWG-serialized), its title and page type. Citations repeat their
-- URL, so each distinct one is staged once (a URL may appear twice under two numbers).
CREATE OR REPLACE TEMP TABLE stg_mentions (
  seq INTEGER, entity_h INTEGER, position INTEGER, sentiment DOUBLE, domain_h INTEGER, prompt_h INTEGER,
  channel UTINYINT, day INTEGER);
CREATE OR REPLACE TEMP TABLE stg_citations (
  seq INTEGER, entry INTEGER, domain_h INTEGER, day INTEGER, ord INTEGER, title VARCHAR, page_type VARCHAR);
CREATE OR REPLACE TEMP TABLE stg_citation_dict (h INTEGER, url VARCHAR, host VARCHAR, cited VARCHAR);
CREATE OR REPLACE TEMP TABLE stg_theme_occ (
  seq INTEGER, theme_h INTEGER, occurrences INTEGER, domain_h INTEGER, channel UTINYINT, model_h INTEGER,
  day INTEGER);
-- The call's citations as they will be stored, with their texts' indexes (resolve_citations):
-- sql/ingest/insert_citations.sql stores them in analysis_key order, a sort that runs once the
-- joins' hash tables are gone (joins and sort in one statement ran out of memory at the 160 MB
-- limit on a 2 GB file: the hash tables stayed pinned while the sort needed its blocks).
CREATE OR REPLACE TEMP TABLE stg_citation_rows (
  analysis_key BIGINT, domain_key INTEGER, day DATE, url VARCHAR, host VARCHAR, ord INTEGER, url_idx INTEGER,
  host_idx INTEGER, title_idx INTEGER, page_type_idx INTEGER);
CREATE OR REPLACE TEMP TABLE stg_fanout (seq INTEGER, ord INTEGER, query VARCHAR, domain_h INTEGER, day INTEGER);
-- Answer texts of the call's analyses (those whose `response` is not null).
CREATE OR REPLACE TEMP TABLE stg_responses (seq INTEGER, domain_h INTEGER, response VARCHAR);
CREATE OR REPLACE TEMP TABLE stg_domain_map (h INTEGER, domain_key INTEGER);
-- The call's distinct texts with their index in the per-domain dictionaries (table texts), fresh
-- when the call adds them, and their key h (sql/ingest/call_texts.sql).
CREATE OR REPLACE TEMP TABLE stg_texts (
  domain_key INTEGER, kind UTINYINT, idx INTEGER, text VARCHAR, host VARCHAR, fresh BOOLEAN, h UHUGEINT);
-- The call's cited URLs with their index and their host's (resolve_citations): each (URL, host)
-- pair joined to its host entry first (a few rows per distinct URL), so each citation is probed
-- once for both (with the two lookups apart, DuckDB built its hash table on the call's citations
-- and probed it with the texts: 17 s of the 56 s staging an L file took).
CREATE OR REPLACE TEMP VIEW stg_cited_urls AS
SELECT u.domain_key, u.text AS cited, u.host, u.idx AS url_idx, h.idx AS host_idx
FROM stg_texts u
JOIN stg_texts h ON h.domain_key = u.domain_key AND h.kind = 2 AND h.text = u.host
WHERE u.kind = 1;
CREATE OR REPLACE TEMP TABLE stg_prompt_map (h INTEGER, prompt_idx INTEGER);
CREATE OR REPLACE TEMP TABLE stg_entity_map (h INTEGER, entity_idx INTEGER);
CREATE OR REPLACE TEMP TABLE stg_theme_map (h INTEGER, theme_idx INTEGER);
CREATE OR REPLACE TEMP TABLE stg_model_map (h INTEGER, model_key INTEGER);
CREATE OR REPLACE TEMP TABLE stg_final (
  seq INTEGER, analysis_key BIGINT, id UUID, domain_key INTEGER, prompt_idx INTEGER, channel UTINYINT,
  model_key INTEGER, answered_ms BIGINT, day DATE, country VARCHAR);
CREATE OR REPLACE TEMP TABLE stg_affected (domain_key INTEGER, day DATE);
-- The call's values the ingest steps read (one row, src/ingest/pipeline.ts): the first free
-- analysis_key and the aggregates' chunk size in stored analyses. A table, not parameters, so that
-- the steps run as one script in one round trip.
CREATE OR REPLACE TEMP TABLE stg_call (base BIGINT, chunk_rows BIGINT);
-- The domains whose aggregates the call changes, with the range of their changed days (days since
-- 1970-01-01): read by sql/ingest/affected_domains.sql and sql/ingest/call_summary.sql.
CREATE OR REPLACE TEMP VIEW stg_affected_domains AS
SELECT domain_key, (min(day) - DATE '1970-01-01')::INTEGER AS from_day,
       (max(day) - DATE '1970-01-01')::INTEGER AS to_day
FROM stg_affected GROUP BY domain_key;
CREATE OR REPLACE TEMP TABLE stg_old (analysis_key BIGINT);
