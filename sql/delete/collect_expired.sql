-- Deletion step collect_expired; phase resolve (the list: src/ingest/deletions.ts).
-- Parameters: $before DATE (the first UTC date kept).
-- The stored analyses a prune removes: those dated before $before. They join stg_old, the analyses
-- an ingest call replaces, so the replace steps of the ingest pipeline remove every row under them.
INSERT INTO stg_old SELECT analysis_key FROM analyses WHERE day < $before
