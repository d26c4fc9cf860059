-- Schema version 7: a fixed-width key beside every entry of the text dictionaries (table texts,
-- sql/schema/003), so an ingest call finds its texts' indexes by joining on integers instead of
-- reading and hashing every stored string of its domains (the strings of a 57-domain call are
-- ~660k stored texts; the join on the key reads a 16-byte column instead).
--
-- texts.h = text_key(text): the first 128 bits of the text's SHA-256 (UTF-8 bytes), as UHUGEINT.
-- An entry is looked up by (domain_key, kind, h) alone: two different texts share a key only
-- through a SHA-256 collision (none is known; at 2^64 random texts in one dictionary the chance
-- of any reaches 1/2). A cryptographic hash, not DuckDB's `hash` (not promised stable across
-- releases) nor MD5 (collisions can be made on purpose). Filled for the stored entries by the
-- migration step (src/db/migrate.ts), written with every new entry (sql/ingest/insert_texts.sql).
CREATE OR REPLACE MACRO key128_of_hex(x) AS
  (('0x' || x[1:16])::UBIGINT::UHUGEINT << 64) | ('0x' || x[17:32])::UBIGINT::UHUGEINT;
CREATE OR REPLACE MACRO text_key(t) AS key128_of_hex(sha256(t));
ALTER TABLE texts ADD COLUMN IF NOT EXISTS h UHUGEINT;
