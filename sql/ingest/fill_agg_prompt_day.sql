-- Ingest step fill_agg_prompt_day; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: clear_agg_prompt_day, insert_analyses, insert_mentions, insert_citations,
-- insert_domains.
-- Prompt series aggregates of the affected days: responses, brand mentions and positions, and
-- citations whose host is the domain's site or a subdomain of it (is_brand_host,
-- sql/schema/002_listings_rankings.sql; hosts stored without `www.`). Every table is read for the
-- affected days only (a mention or citation has its analysis's domain and day): joined on the
-- analysis alone, the brand mentions of every stored day were read and hashed whenever the planner
-- built on them (45 vs 10 ms of CPU a call on the serving probe's store, for stored days).
INSERT INTO agg_prompt_day
SELECT a.domain_key, a.day, a.prompt_idx,
       count(*)::INTEGER AS responses,
       count(m.analysis_key)::INTEGER AS mentions,
       coalesce(sum(c.n), 0)::INTEGER AS citations,
       coalesce(sum(m.position), 0)::BIGINT AS pos_sum,
       count(m.position)::INTEGER AS pos_cnt
FROM analyses a
SEMI JOIN stg_affected s ON a.domain_key = s.domain_key AND a.day = s.day
LEFT JOIN (
  SELECT m.analysis_key, m.position
  FROM mentions m
  SEMI JOIN stg_affected s ON m.domain_key = s.domain_key AND m.day = s.day
  WHERE m.entity_idx = 0
) m ON m.analysis_key = a.analysis_key
LEFT JOIN (
  SELECT c.analysis_key, count(*) AS n
  FROM citations c
  SEMI JOIN stg_affected s ON c.domain_key = s.domain_key AND c.day = s.day
  JOIN domains d ON d.domain_key = c.domain_key
  WHERE is_brand_host(c.host, d.site_host)
  GROUP BY c.analysis_key
) c ON c.analysis_key = a.analysis_key
GROUP BY a.domain_key, a.day, a.prompt_idx
ORDER BY a.domain_key, a.day, a.prompt_idx
