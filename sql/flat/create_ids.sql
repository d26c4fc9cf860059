-- An empty flat_ids of a flat import (src/ingest/flat-sql.ts; flat/keys.sql fills one).
CREATE OR REPLACE TEMP TABLE flat_ids (id VARCHAR, seq INTEGER, n INTEGER)
