-- Migration to schema version 3 (src/db/migrate.ts): stages the citations stored by an older version as an
-- ingest call would (stg_citations and their URLs' dictionary, with domain handles equal to domain
-- keys), their identity taken from mig_cited_urls (computed in TypeScript: citedUrl). Parameters: none.
INSERT INTO stg_citation_dict
SELECT (row_number() OVER ())::INTEGER, url, host, cited
FROM (
  SELECT DISTINCT c.url, c.host, m.cited
  FROM citations c
  JOIN mig_cited_urls m ON m.url = c.url
  WHERE c.url_idx IS NULL
);
INSERT INTO stg_citations
SELECT 0, d.h, c.domain_key, (c.day - DATE '1970-01-01')::INTEGER, 0, NULL, NULL
FROM citations c
JOIN stg_citation_dict d ON d.url = c.url AND d.host = c.host
WHERE c.url_idx IS NULL
