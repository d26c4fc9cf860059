-- Migration to schema version 3 (src/db/migrate.ts): the distinct URLs of the citations stored by an
-- older version, with their host and identity (mig_cited_urls), numbered as an ingest call's
-- citation dictionary (stg_citation_dict). Runs before v3_stage_citations.sql. Parameters: none.
INSERT INTO stg_citation_dict
SELECT (row_number() OVER ())::INTEGER, url, host, cited
FROM (
  SELECT DISTINCT c.url, c.host, m.cited
  FROM citations c
  JOIN mig_cited_urls m ON m.url = c.url
  WHERE c.url_idx IS NULL
)
