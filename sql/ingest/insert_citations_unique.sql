-- Ingest step insert_citations (variant for distinct
-- analysis ids); phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: $base BIGINT (the first free analysis_key; a row's key is $base + seq).
-- Runs after: final_analyses, delete_old_citations.
-- insert_citations for a call whose analysis ids are all distinct (see insert_mentions_unique).
INSERT INTO citations
SELECT $base + c.seq, dm.domain_key, DATE '1970-01-01' + c.day, c.url, c.host
FROM stg_citations c
JOIN stg_domain_map dm ON dm.h = c.domain_h
