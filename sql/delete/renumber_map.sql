-- Deletion step renumber_map; phase renumber (the list: src/ingest/deletions.ts).
-- Parameters: none.
-- For each domain that lost members: the dense index of every member left, in the order of their
-- old indexes (prompts and themes from 0, competitors from 1: 0 is the brand), where it changes.
INSERT INTO del_renumber
SELECT kind, domain_key, old_idx, new_idx FROM (
  SELECT 1 AS kind, domain_key, prompt_idx AS old_idx,
         (row_number() OVER (PARTITION BY domain_key ORDER BY prompt_idx) - 1)::INTEGER AS new_idx
  FROM prompts WHERE domain_key IN (SELECT domain_key FROM del_members)
  UNION ALL
  SELECT 2, domain_key, entity_idx, (row_number() OVER (PARTITION BY domain_key ORDER BY entity_idx))::INTEGER
  FROM competitors WHERE domain_key IN (SELECT domain_key FROM del_members)
  UNION ALL
  SELECT 3, domain_key, theme_idx, (row_number() OVER (PARTITION BY domain_key ORDER BY theme_idx) - 1)::INTEGER
  FROM themes WHERE domain_key IN (SELECT domain_key FROM del_members)
) WHERE old_idx <> new_idx
