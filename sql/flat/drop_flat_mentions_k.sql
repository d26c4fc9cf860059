-- Drops a temp table of a flat import (src/ingest/flat-sql.ts), if there.
DROP TABLE IF EXISTS temp.flat_mentions_k
