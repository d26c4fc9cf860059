-- Migration to schema version 3 (src/db/migrate.ts): stages the citations stored by an older version as an
-- ingest call would (stg_citations, with domain handles equal to domain keys), each naming its URL's
-- entry of the dictionary v3_citation_dict.sql made. Parameters: none.
INSERT INTO stg_citations
SELECT 0, d.h, c.domain_key, (c.day - DATE '1970-01-01')::INTEGER, 0, NULL, NULL
FROM citations c
JOIN stg_citation_dict d ON d.url = c.url AND d.host = c.host
WHERE c.url_idx IS NULL
