-- Ingest step insert_theme_occurrences; phase facts (the list: src/ingest/pipeline.ts).
-- Parameters: none.
-- Runs after: final_analyses, delete_old_theme_occurrences.
-- Inserts the theme occurrences of the call's final analyses. Its changed rows are the call's
-- `theme_occurrences` count.
INSERT INTO theme_occurrences
SELECT f.analysis_key, f.domain_key, f.day, f.channel, f.model_key, tm.theme_idx, t.occurrences
FROM stg_theme_occ t
JOIN stg_final f ON f.seq = t.seq
JOIN stg_theme_map tm ON tm.h = t.theme_h
-- In analysis_key order: the answers listing reads a page's rows by key range, skipping the other
-- row groups (docs/API.md, "GET /api/v1/answers").
ORDER BY 1
