-- Deletion step delete_texts; phase delete (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- The text dictionaries (cited URLs, hosts, titles, page types, fan-out queries) of the deleted
-- domains. A domain that stays keeps its entries: their indexes are stable and never reused, and a
-- report reads only the entries its rows point to.
DELETE FROM texts WHERE domain_key IN (SELECT domain_key FROM del_domains)
