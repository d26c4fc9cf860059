-- The citation dictionary of a checked flat import (src/ingest/flat-sql.ts): its distinct cited
-- URLs (flat_urls, with their host and identity), numbered. Runs before stage_citations.sql, whose
-- rows name them by number.
INSERT INTO stg_citation_dict
SELECT (row_number() OVER ())::INTEGER, url, host, cited FROM flat_urls
