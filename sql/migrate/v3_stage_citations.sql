-- Migration to schema version 3 (src/db/migrate.ts): stages the citations stored by an older version as an
-- ingest call would (stg_citations, with domain handles equal to domain keys), their identity taken
-- from mig_cited_urls (computed in TypeScript: citedUrl). Parameters: none.
INSERT INTO stg_citations
SELECT 0, c.url, c.host, c.domain_key, (c.day - DATE '1970-01-01')::INTEGER, 0, m.cited, NULL, NULL
FROM citations c
JOIN mig_cited_urls m ON m.url = c.url
WHERE c.url_idx IS NULL
