-- 23_insert_citations for a call whose analysis ids are all distinct (see insert_mentions_unique).
-- $base BIGINT: the first free analysis_key.
INSERT INTO citations
SELECT $base + c.seq, dm.domain_key, DATE '1970-01-01' + c.day, c.url, c.host
FROM stg_citations c
JOIN stg_domain_map dm ON dm.h = c.domain_h
