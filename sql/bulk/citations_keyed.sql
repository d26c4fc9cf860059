-- The empty-target bulk write (src/ingest/flat-bulk.ts): the import's citations with their
-- analysis's keys, their URL's host and identity (flat_urls) and their staged position (by `ord`,
-- then table order), as stage_citations gives them. Parameters: none. Runs after bulk/keys.
CREATE OR REPLACE TEMP TABLE bulk_citations AS
SELECT a.analysis_key, a.domain_key, a.day, c.url, u.host, u.cited, c.title, c.page_type,
       (row_number() OVER (PARTITION BY c.seq ORDER BY coalesce(c.ord::DOUBLE, 'infinity'::DOUBLE), c.rn) - 1)::INTEGER
         AS ord
FROM flat_citations_k c
JOIN bulk_analyses a ON a.seq = c.seq
JOIN flat_urls u ON u.url = c.url
