-- The empty-target bulk write (src/ingest/flat-bulk.ts): the import's fan-out queries with their
-- analysis's keys, their staged position (by `ord`, then table order) and trimmed text, as
-- stage_fanout gives them. Parameters: none. Runs after bulk/keys.
CREATE OR REPLACE TEMP TABLE bulk_fanout AS
SELECT a.analysis_key, a.domain_key, a.day,
       (row_number() OVER (PARTITION BY f.seq ORDER BY coalesce(f.ord::DOUBLE, 'infinity'::DOUBLE), f.rn) - 1)::INTEGER
         AS ord,
       js_trim(f.query) AS query
FROM flat_fanout_queries_k f
JOIN bulk_analyses a ON a.seq = f.seq
