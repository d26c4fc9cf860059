-- Ingest step fill_agg_citation_day; phase aggregates (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: clear_agg_citation_day, insert_analyses, insert_citations, insert_domains.
-- Per (domain, day, channel) the citation entries and the brand citation entries (is_brand_host,
-- sql/schema/002_listings_rankings.sql) of the affected days. Also run by the migration to schema
-- version 2.
INSERT INTO agg_citation_day
SELECT c.domain_key, c.day, a.channel, count(*)::INTEGER,
       count(*) FILTER (WHERE is_brand_host(c.host, d.site_host))::INTEGER
FROM citations c
SEMI JOIN stg_affected s ON c.domain_key = s.domain_key AND c.day = s.day
JOIN analyses a ON a.analysis_key = c.analysis_key
JOIN domains d ON d.domain_key = c.domain_key
GROUP BY c.domain_key, c.day, a.channel
ORDER BY c.domain_key, c.day, a.channel
