-- The handles of a flat import's ids of one kind (src/ingest/flat-sql.ts): the id, its handle.
CREATE OR REPLACE TEMP TABLE h_prompt (id VARCHAR, h INTEGER)
