-- Days whose aggregates change because new analyses arrive.
INSERT INTO stg_affected SELECT DISTINCT domain_key, day FROM stg_final
