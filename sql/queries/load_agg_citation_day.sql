-- One domain's citation entries and brand citation entries per (day, channel), by day.
-- Read by the aggregate store (src/tables/aggregate-store.ts); the columns must be, in order,
-- those of agg_citation_day in AGGREGATE_TABLES (src/tables/aggregates.ts), every one DOUBLE NOT
-- NULL.
-- Parameters: $domain_key INTEGER; $from_day, $to_day INTEGER (days since 1970-01-01: the rows of
-- those days, both included; reload_agg_citation_day.sql reads the days a commit changed).
SELECT ((day - DATE '1970-01-01'))::DOUBLE AS day,
       (channel)::DOUBLE AS channel,
       (citations)::DOUBLE AS citations,
       (brand_citations)::DOUBLE AS brand_citations
FROM agg_citation_day WHERE domain_key = $domain_key
  AND day BETWEEN DATE '1970-01-01' + $from_day AND DATE '1970-01-01' + $to_day ORDER BY day, channel
