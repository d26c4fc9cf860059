-- Ingest step call_texts; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: the staging tables and handle maps (IngestCall.stage).
-- The call's distinct texts (stg_texts) with their index in the stored dictionaries (table texts)
-- when they have one: cited URLs (kind 1, with their host), cited hosts (2), titles (3), page types
-- (4) and fan-out queries (5). The join builds on the call's texts and probes the stored ones, so a
-- small call does not hash every stored text of its domains.
INSERT INTO stg_texts
WITH staged AS (
  SELECT DISTINCT dm.h, dm.domain_key, 1::UTINYINT AS kind, c.cited AS text, c.host
  FROM stg_citations c JOIN stg_domain_map dm ON dm.h = c.domain_h
  UNION ALL
  SELECT DISTINCT dm.h, dm.domain_key, 2::UTINYINT, c.host, NULL
  FROM stg_citations c JOIN stg_domain_map dm ON dm.h = c.domain_h
  UNION ALL
  SELECT DISTINCT dm.h, dm.domain_key, 3::UTINYINT, c.title, NULL
  FROM stg_citations c JOIN stg_domain_map dm ON dm.h = c.domain_h WHERE c.title IS NOT NULL
  UNION ALL
  SELECT DISTINCT dm.h, dm.domain_key, 4::UTINYINT, c.page_type, NULL
  FROM stg_citations c JOIN stg_domain_map dm ON dm.h = c.domain_h WHERE c.page_type IS NOT NULL
  UNION ALL
  SELECT DISTINCT dm.h, dm.domain_key, 5::UTINYINT, f.query, NULL
  FROM stg_fanout f JOIN stg_domain_map dm ON dm.h = f.domain_h
)
SELECT s.domain_key, s.kind, t.idx, s.text, s.host, false, s.h::BIGINT * 8 + s.kind
FROM staged s
LEFT JOIN texts t ON t.domain_key = s.domain_key AND t.kind = s.kind AND t.text = s.text
