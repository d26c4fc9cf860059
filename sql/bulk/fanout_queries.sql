-- The empty-target bulk write (src/ingest/flat-bulk.ts): the fan-out queries with their text's
-- index, as insert_fanout_queries_unique does. Parameters: none. Runs after bulk/texts.
INSERT INTO fanout_queries
SELECT f.analysis_key, f.domain_key, f.day, f.ord, t.idx
FROM bulk_fanout f
JOIN bulk_texts t ON t.domain_key = f.domain_key AND t.kind = 5 AND t.text = f.query
ORDER BY f.analysis_key, f.ord
