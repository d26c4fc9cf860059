-- Ingest step insert_texts; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: the staging tables and handle maps (IngestCall.stage).
-- Adds the call's new texts to the per-domain dictionaries (table texts, sql/schema/002): cited
-- URLs (kind 1, with their host), cited hosts (2), titles (3), page types (4) and fan-out queries
-- (5). A new text gets the next free index of its (domain, kind), in text order.
INSERT INTO texts
WITH staged AS (
  SELECT DISTINCT dm.domain_key, 1::UTINYINT AS kind, c.cited AS text, c.host
  FROM stg_citations c JOIN stg_domain_map dm ON dm.h = c.domain_h
  UNION ALL
  SELECT DISTINCT dm.domain_key, 2::UTINYINT, c.host, NULL
  FROM stg_citations c JOIN stg_domain_map dm ON dm.h = c.domain_h
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
fresh AS (
  SELECT s.* FROM staged s
  ANTI JOIN texts t ON t.domain_key = s.domain_key AND t.kind = s.kind AND t.text = s.text
),
top AS (SELECT domain_key, kind, max(idx) AS top FROM texts GROUP BY domain_key, kind)
SELECT f.domain_key, f.kind,
       (coalesce(top.top, -1) + row_number() OVER (PARTITION BY f.domain_key, f.kind ORDER BY f.text))::INTEGER,
       f.text, f.host
FROM fresh f
LEFT JOIN top ON top.domain_key = f.domain_key AND top.kind = f.kind
