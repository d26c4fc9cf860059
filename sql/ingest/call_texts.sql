-- Ingest step call_texts; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: call_domains.
-- The call's distinct texts (stg_texts) with their index in the per-domain dictionaries (table
-- texts): cited URLs (kind 1, with their host), cited hosts (2), titles (3), page types (4) and
-- fan-out queries (5). A stored text keeps its index; a new one (fresh) gets the next free index of
-- its (domain, kind), in text order. The lookup builds on the call's texts and probes the stored
-- ones by their key h (text_key, sql/schema/007_text_keys.sql), so the stored strings are never
-- read: a call naming many domains scans a 16-byte column of their entries, not their text. One
-- INSERT, no UPDATE (an update's undo records stay in memory for the whole transaction).
INSERT INTO stg_texts
WITH entries AS (
  -- Each domain's cited URLs (citation dictionary entries), then their identities and hosts (not
  -- MATERIALIZED: that cost a 500-analysis call 13 ms and L 70-110 ms more).
  SELECT dm.domain_key, d.cited, d.host
  FROM (SELECT DISTINCT domain_h, entry FROM stg_citations) c
  JOIN stg_citation_dict d ON d.h = c.entry
  JOIN stg_domain_map dm ON dm.h = c.domain_h
),
staged AS (
  SELECT DISTINCT domain_key, 1::UTINYINT AS kind, cited AS text, host FROM entries
  UNION ALL
  SELECT DISTINCT domain_key, 2::UTINYINT, host, NULL FROM entries
  UNION ALL
  SELECT DISTINCT dm.domain_key, 3::UTINYINT, c.title, NULL
  FROM stg_citations c JOIN stg_domain_map dm ON dm.h = c.domain_h WHERE c.title IS NOT NULL
  UNION ALL
  SELECT DISTINCT dm.domain_key, 4::UTINYINT, c.page_type, NULL
  FROM stg_citations c JOIN stg_domain_map dm ON dm.h = c.domain_h WHERE c.page_type IS NOT NULL
  UNION ALL
  SELECT DISTINCT dm.domain_key, 5::UTINYINT, f.query, NULL
  FROM stg_fanout f JOIN stg_domain_map dm ON dm.h = f.domain_h
),
keyed AS (
  SELECT *, text_key(text) AS h FROM staged
),
looked AS (
  SELECT s.*, t.idx
  FROM keyed s
  LEFT JOIN texts t ON t.domain_key = s.domain_key AND t.kind = s.kind AND t.h = s.h
),
top AS (
  -- Over the range of the call's domain keys (call_domains), then joined: a perfect-hash aggregate
  -- of two small integer columns behind a constant filter of the scan is cheaper than probing the
  -- call's domains for each stored entry first.
  SELECT t.domain_key, t.kind, max(t.idx) AS top
  FROM texts t
  WHERE t.domain_key BETWEEN getvariable('va_call_domains')[1] AND getvariable('va_call_domains')[2]
  GROUP BY t.domain_key, t.kind
)
-- A fresh text's place in text order among its dictionary's fresh texts. The window is partitioned
-- by dictionary: one row number over all rows less each group's rank (a few ms less on a 500-analysis
-- call) sorts the whole call as one partition, and ran a 467k-analysis call of 1,001 domains out of
-- memory at 160 MB (bench/NOTES.md, "lead, 2026-11-27").
SELECT l.domain_key, l.kind,
       coalesce(l.idx, (coalesce(top.top, -1)
         + row_number() OVER (PARTITION BY l.domain_key, l.kind, l.idx IS NULL ORDER BY l.text))::INTEGER),
       l.text, l.host, l.idx IS NULL, l.h
FROM looked l
LEFT JOIN top ON top.domain_key = l.domain_key AND top.kind = l.kind
