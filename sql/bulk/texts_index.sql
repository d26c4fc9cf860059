-- The empty-target bulk write (src/ingest/flat-bulk.ts): the texts of the import's citations and
-- fan-out queries with their index in the per-domain dictionaries (table texts), as call_texts
-- gives them to a domain with none stored yet: each distinct text of a (domain, kind) gets the
-- index of its place in text order, from 0. Kinds: 1 cited URL (with its host), 2 cited host,
-- 3 title, 4 page type, 5 fan-out query (trimmed). Parameters: none. Runs after bulk/citations_keyed
-- and bulk/fanout_keyed.
CREATE OR REPLACE TEMP TABLE bulk_texts AS
WITH staged AS (
  SELECT DISTINCT domain_key, 1::UTINYINT AS kind, cited AS text, host FROM bulk_citations
  UNION ALL SELECT DISTINCT domain_key, 2::UTINYINT, host, NULL FROM bulk_citations
  UNION ALL SELECT DISTINCT domain_key, 3::UTINYINT, title, NULL FROM bulk_citations WHERE title IS NOT NULL
  UNION ALL SELECT DISTINCT domain_key, 4::UTINYINT, page_type, NULL FROM bulk_citations WHERE page_type IS NOT NULL
  UNION ALL SELECT DISTINCT domain_key, 5::UTINYINT, query, NULL FROM bulk_fanout
)
SELECT domain_key, kind, (row_number() OVER (PARTITION BY domain_key, kind ORDER BY text) - 1)::INTEGER AS idx,
       text, host
FROM staged
