-- Ingest step new_texts; phase dimensions (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: call_texts.
-- The call's texts not in the stored dictionaries yet are fresh: each gets the next free index of
-- its (domain, kind), in text order.
UPDATE stg_texts SET idx = n.idx, fresh = true
FROM (
  WITH top AS (
    SELECT t.domain_key, t.kind, max(t.idx) AS top
    FROM texts t SEMI JOIN stg_domain_map dm ON dm.domain_key = t.domain_key
    GROUP BY t.domain_key, t.kind
  )
  SELECT s.dk, s.text,
         (coalesce(top.top, -1) + row_number() OVER (PARTITION BY s.dk ORDER BY s.text))::INTEGER AS idx
  FROM stg_texts s
  LEFT JOIN top ON top.domain_key = s.domain_key AND top.kind = s.kind
  WHERE s.idx IS NULL
) n
WHERE stg_texts.dk = n.dk AND stg_texts.text = n.text
