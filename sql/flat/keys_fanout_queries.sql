-- The fanout_queries of a flat import with their analysis's seq (null: an orphan), as flat_fanout_queries_k; runs
-- after keys.sql (src/ingest/flat-sql.ts).
CREATE OR REPLACE TEMP TABLE flat_fanout_queries_k AS
SELECT i.seq, c.* FROM flat_fanout_queries c LEFT JOIN flat_ids i ON i.id = lower(c.analysis_id)
