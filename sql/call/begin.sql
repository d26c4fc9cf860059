-- Opens a transaction on the write connection (src/ingest/call.ts): run in one script with the
-- statements before and after it, so that opening a call's staging, and the call's own
-- transaction after the staging's commit, each cost one round trip instead of several.
BEGIN TRANSACTION
