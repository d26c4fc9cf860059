-- The empty-target bulk write (src/ingest/flat-bulk.ts): the answer texts a Parquet import appended
-- from its files (sql/flat/append_responses.sql, domain_key -1 - h) get their domain's key, as
-- place_analysis_responses does (their analysis keys are already the stored ones). Parameters: none.
UPDATE analysis_responses SET domain_key = dm.domain_key
FROM stg_domain_map dm
WHERE analysis_responses.domain_key < 0 AND analysis_responses.domain_key = -1 - dm.h
