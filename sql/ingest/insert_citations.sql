-- Ingest step insert_citations; phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: resolve_citations, delete_old_citations.
-- Stores the call's citations (stg_citation_rows, resolve_citations). Its changed rows are the
-- call's `citations` count.
-- In analysis_key order: the answers listing reads a page's rows by key range, skipping the other
-- row groups (docs/API.md, "GET /api/v1/answers"). The sort reads a table, not the joins that
-- resolved its rows: with the joins' hash tables pinned beside it, it could not spill enough and a
-- 2 GB file's call ran out of memory at the 160 MB limit (bench/NOTES.md, n10).
INSERT INTO citations
SELECT analysis_key, domain_key, day, url, host, ord, url_idx, host_idx, title_idx, page_type_idx
FROM stg_citation_rows
ORDER BY analysis_key
