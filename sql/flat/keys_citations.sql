-- The citations of a flat import with their analysis's seq (null: an orphan), as flat_citations_k; runs
-- after keys.sql (src/ingest/flat-sql.ts).
CREATE OR REPLACE TEMP TABLE flat_citations_k AS
SELECT i.seq, c.* FROM flat_citations c LEFT JOIN flat_ids i ON i.id = lower(c.analysis_id)
