-- Deletion step affected_members; phase resolve (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- Every day of a domain that loses a prompt, competitor or theme: its members are renumbered, so
-- all of its aggregates are recomputed.
INSERT INTO stg_affected
SELECT DISTINCT c.domain_key, c.day FROM agg_channel_day c
WHERE c.domain_key IN (SELECT domain_key FROM del_members)
