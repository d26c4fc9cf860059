-- Ingest step insert_theme_occurrences (variant for distinct
-- analysis ids); phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses, delete_old_theme_occurrences.
-- A row's key is base + seq: base, the first free analysis_key, is stg_call's (one row).
-- insert_theme_occurrences for a call whose analysis ids are all distinct (see
-- insert_mentions_unique).
INSERT INTO theme_occurrences
SELECT (SELECT base FROM stg_call) + t.seq, dm.domain_key, DATE '1970-01-01' + t.day, t.channel, mm.model_key, tm.theme_idx,
       t.occurrences
FROM stg_theme_occ t
JOIN stg_domain_map dm ON dm.h = t.domain_h
JOIN stg_model_map mm ON mm.h = t.model_h
JOIN stg_theme_map tm ON tm.h = t.theme_h
-- In analysis_key order: the answers listing reads a page's rows by key range, skipping the other
-- row groups (docs/API.md, "GET /api/v1/answers").
ORDER BY 1
