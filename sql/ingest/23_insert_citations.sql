INSERT INTO citations
SELECT f.analysis_key, f.domain_key, f.day, c.url, c.host
FROM stg_citations c
JOIN stg_final f ON f.seq = c.seq
