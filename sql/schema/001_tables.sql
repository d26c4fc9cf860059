-- Schema version 1: dimension tables, raw analysis tables and the daily aggregates that the four
-- reports read. Surrogate keys: domain_key (global), prompt_idx / entity_idx / theme_idx (local to
-- a domain; entity_idx 0 is the brand), model_key (global). Aggregates are kept ordered by
-- (domain_key, day) so that a one-domain query reads only that domain's row groups.
CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL);

CREATE TABLE IF NOT EXISTS teams (
  id UUID NOT NULL, name VARCHAR NOT NULL, plan VARCHAR NOT NULL, developer_access BOOLEAN NOT NULL);

CREATE TABLE IF NOT EXISTS domains (
  domain_key INTEGER NOT NULL, id UUID NOT NULL, team_id UUID NOT NULL, brand_name VARCHAR NOT NULL,
  website VARCHAR, site_host VARCHAR);

CREATE TABLE IF NOT EXISTS prompts (
  domain_key INTEGER NOT NULL, prompt_idx INTEGER NOT NULL, id UUID NOT NULL, text VARCHAR NOT NULL,
  estimated_search_volume BIGINT);

CREATE TABLE IF NOT EXISTS competitors (
  domain_key INTEGER NOT NULL, entity_idx INTEGER NOT NULL, id UUID NOT NULL, name VARCHAR NOT NULL,
  website VARCHAR);

CREATE TABLE IF NOT EXISTS themes (
  domain_key INTEGER NOT NULL, theme_idx INTEGER NOT NULL, id UUID NOT NULL, name VARCHAR NOT NULL,
  custom_name VARCHAR, archived BOOLEAN NOT NULL, sentiment VARCHAR NOT NULL, created_at DATE NOT NULL);

CREATE TABLE IF NOT EXISTS models (model_key INTEGER NOT NULL, model VARCHAR NOT NULL);

CREATE TABLE IF NOT EXISTS analyses (
  analysis_key BIGINT NOT NULL, id UUID NOT NULL, domain_key INTEGER NOT NULL, prompt_idx INTEGER NOT NULL,
  channel UTINYINT NOT NULL, model_key INTEGER NOT NULL, answered_at TIMESTAMPTZ NOT NULL, day DATE NOT NULL);

CREATE TABLE IF NOT EXISTS mentions (
  analysis_key BIGINT NOT NULL, domain_key INTEGER NOT NULL, day DATE NOT NULL, channel UTINYINT NOT NULL,
  prompt_idx INTEGER NOT NULL, entity_idx INTEGER NOT NULL, position INTEGER, sentiment DOUBLE);

CREATE TABLE IF NOT EXISTS citations (
  analysis_key BIGINT NOT NULL, domain_key INTEGER NOT NULL, day DATE NOT NULL, url VARCHAR NOT NULL,
  host VARCHAR NOT NULL);

CREATE TABLE IF NOT EXISTS theme_occurrences (
  analysis_key BIGINT NOT NULL, domain_key INTEGER NOT NULL, day DATE NOT NULL, channel UTINYINT NOT NULL,
  model_key INTEGER NOT NULL, theme_idx INTEGER NOT NULL, occurrences INTEGER NOT NULL);

-- Per (domain, day, prompt): what the prompt series reads.
CREATE TABLE IF NOT EXISTS agg_prompt_day (
  domain_key INTEGER NOT NULL, day DATE NOT NULL, prompt_idx INTEGER NOT NULL, responses INTEGER NOT NULL,
  mentions INTEGER NOT NULL, citations INTEGER NOT NULL, pos_sum BIGINT NOT NULL, pos_cnt INTEGER NOT NULL);

-- Per (domain, day, channel): analyses that day (the competitor series' dates and denominators).
CREATE TABLE IF NOT EXISTS agg_channel_day (
  domain_key INTEGER NOT NULL, day DATE NOT NULL, channel UTINYINT NOT NULL, analyses INTEGER NOT NULL);

-- Per (domain, day, channel, entity): mentions and position/sentiment sums.
CREATE TABLE IF NOT EXISTS agg_entity_day (
  domain_key INTEGER NOT NULL, day DATE NOT NULL, channel UTINYINT NOT NULL, entity_idx INTEGER NOT NULL,
  mentions INTEGER NOT NULL, pos_sum BIGINT NOT NULL, pos_cnt INTEGER NOT NULL, sent_sum DOUBLE NOT NULL,
  sent_cnt INTEGER NOT NULL);

-- Per (domain, day, channel, entity, chunk of 64 prompts): a bitmask of the prompts whose analyses
-- mention the entity; OR-ed over the window and popcounted, it gives total_queries without
-- COUNT(DISTINCT) over raw rows.
CREATE TABLE IF NOT EXISTS agg_entity_prompts (
  domain_key INTEGER NOT NULL, day DATE NOT NULL, channel UTINYINT NOT NULL, entity_idx INTEGER NOT NULL,
  chunk INTEGER NOT NULL, bits UBIGINT NOT NULL);

-- Per (domain, day, channel, model, theme): occurrences.
CREATE TABLE IF NOT EXISTS agg_theme_day (
  domain_key INTEGER NOT NULL, day DATE NOT NULL, channel UTINYINT NOT NULL, model_key INTEGER NOT NULL,
  theme_idx INTEGER NOT NULL, occurrences BIGINT NOT NULL);

-- API keys: only the SHA-256 of the secret is stored.
CREATE TABLE IF NOT EXISTS api_keys (
  id UUID NOT NULL, prefix VARCHAR NOT NULL, key_hash VARCHAR NOT NULL, team_id UUID NOT NULL,
  scope_team_ids UUID[] NOT NULL, allowed_domains UUID[], name VARCHAR, created_at TIMESTAMPTZ NOT NULL,
  revoked_at TIMESTAMPTZ);
