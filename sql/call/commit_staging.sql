-- Commits the staging's own transaction (src/ingest/call.ts, `stage`): the staged rows and the
-- call's unplaced answer texts, so the planner counts them; the call's own transaction opens next
-- and is the one whose COMMIT makes the call durable.
COMMIT
