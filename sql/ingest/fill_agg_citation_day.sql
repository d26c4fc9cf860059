-- Ingest step fill_agg_citation_day; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: clear_agg_citation_day, insert_analyses, insert_citations, insert_domains.
-- Per (domain, day, channel) the citation entries and the brand citation entries (is_brand_host,
-- sql/schema/002_listings_rankings.sql) of the affected days. Also run by the migration to schema
-- version 2.
-- Its analyses are read for the affected days only (a citation has its analysis's domain and day):
-- joined on the key alone, every stored analysis was hashed whenever the planner built on them (42
-- vs 6 ms of CPU a call on the serving probe's store, for stored days).
INSERT INTO agg_citation_day
SELECT c.domain_key, c.day, a.channel, count(*)::INTEGER,
       count(*) FILTER (WHERE is_brand_host(c.host, d.site_host))::INTEGER
FROM citations c
SEMI JOIN stg_affected s ON c.domain_key = s.domain_key AND c.day = s.day
JOIN (
  SELECT a.analysis_key, a.channel
  FROM analyses a
  SEMI JOIN stg_affected s ON a.domain_key = s.domain_key AND a.day = s.day
) a ON a.analysis_key = c.analysis_key
JOIN domains d ON d.domain_key = c.domain_key
GROUP BY c.domain_key, c.day, a.channel
ORDER BY c.domain_key, c.day, a.channel
