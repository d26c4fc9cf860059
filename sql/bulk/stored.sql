-- Whether a checked flat import may take the empty-target bulk write (src/ingest/flat-bulk.ts):
-- the stored analyses that carry one of its analysis ids (none when the target holds none of
-- them). Parameters: none. Runs after flat/keys.
SELECT count(*)::INTEGER AS n FROM analyses SEMI JOIN flat_ids i ON analyses.id = i.id::UUID
