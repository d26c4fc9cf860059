-- The empty-target bulk write (src/ingest/flat-bulk.ts): the theme occurrences, as stage_theme_occ
-- and insert_theme_occurrences_unique do. Parameters: none. Runs after bulk/analyses.
INSERT INTO theme_occurrences
SELECT a.analysis_key, a.domain_key, a.day, a.channel, a.model_key, tm.theme_idx, t.occurrences::INTEGER
FROM flat_theme_occurrences_k t
JOIN bulk_analyses a ON a.seq = t.seq
JOIN h_theme h ON h.id = lower(t.theme_id)
JOIN stg_theme_map tm ON tm.h = h.h
ORDER BY a.analysis_key, t.rn
