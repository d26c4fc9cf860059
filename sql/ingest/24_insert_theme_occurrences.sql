INSERT INTO theme_occurrences
SELECT f.analysis_key, f.domain_key, f.day, f.channel, f.model_key, tm.theme_idx, t.occurrences
FROM stg_theme_occ t
JOIN stg_final f ON f.seq = t.seq
JOIN stg_theme_map tm ON tm.h = t.theme_h
