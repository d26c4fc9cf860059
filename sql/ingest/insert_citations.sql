-- Ingest step insert_citations; phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses, delete_old_citations.
-- Inserts the citations of the call's final analyses. Its changed rows are the call's `citations`
-- count.
INSERT INTO citations
SELECT f.analysis_key, f.domain_key, f.day, c.url, c.host
FROM stg_citations c
JOIN stg_final f ON f.seq = c.seq
