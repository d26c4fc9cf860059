-- Schema version 2: the creation times of domains and prompts (extensions 1), the brand-host rule as
-- a macro, and the daily aggregates of the brand rankings and the brand time series. An older file
-- gets the new aggregates filled from its raw tables when it is migrated (src/db/migrate.ts).
ALTER TABLE domains ADD COLUMN IF NOT EXISTS created_at TIMESTAMPTZ;
ALTER TABLE prompts ADD COLUMN IF NOT EXISTS created_at TIMESTAMPTZ;

-- A brand citation (semantics.md 4, extensions 2): the citation's host is the domain's site host or
-- a subdomain of it (both stored in the compared form: lower case, no trailing dot, no leading
-- `www.`); never when the domain has no website.
CREATE OR REPLACE MACRO is_brand_host(host, site_host) AS
  site_host IS NOT NULL AND (host = site_host OR ends_with(host, '.' || site_host));

-- Per (domain, day, channel, chunk of 64 prompts): a bitmask of the prompts with at least one
-- analysis (total_prompts of the brand rankings).
CREATE TABLE IF NOT EXISTS agg_channel_prompts (
  domain_key INTEGER NOT NULL, day DATE NOT NULL, channel UTINYINT NOT NULL, chunk INTEGER NOT NULL,
  bits UBIGINT NOT NULL);

-- Per (domain, day, channel, entity, prompt): the analyses mentioning the entity and the sum and
-- count of its non-null positions (the brand rankings: mentions, prompts_mentioned, and
-- avg_position, a mean per prompt then over prompts).
CREATE TABLE IF NOT EXISTS agg_entity_prompt_day (
  domain_key INTEGER NOT NULL, day DATE NOT NULL, channel UTINYINT NOT NULL, entity_idx INTEGER NOT NULL,
  prompt_idx INTEGER NOT NULL, mentions INTEGER NOT NULL, pos_sum BIGINT NOT NULL, pos_cnt INTEGER NOT NULL);

-- Per (domain, day, channel): citation entries and brand citation entries (the citations and
-- citability time series).
CREATE TABLE IF NOT EXISTS agg_citation_day (
  domain_key INTEGER NOT NULL, day DATE NOT NULL, channel UTINYINT NOT NULL, citations INTEGER NOT NULL,
  brand_citations INTEGER NOT NULL);
