-- The answers listing's index of a domain (docs/API.md, "GET /api/v1/answers"): its analyses of
-- days $from_day to $to_day (days since 1970-01-01; the whole history, or the days a commit
-- changed) in the listing's order (answered_at descending, then id descending: a UUID orders as its
-- text), with what its filters read. country: (first letter - 65) * 26 + (second letter - 65), -1
-- when none. The id as four numbers, its 128 bits in four words of 32 bits from the first, each
-- minus 2^31 (a 32-bit integer, in the same order as the word): no string per analysis. Read by
-- src/reports/answers/index-rows.ts; DOUBLE NOT NULL.
-- Parameters: $domain_key INTEGER, $from_day INTEGER, $to_day INTEGER.
SELECT analysis_key::DOUBLE AS analysis_key, epoch_ms(answered_at)::DOUBLE AS ms,
       prompt_idx::DOUBLE AS prompt_idx, channel::DOUBLE AS channel, model_key::DOUBLE AS model_key,
       coalesce((ascii(country[1]) - 65) * 26 + ascii(country[2]) - 65, -1)::DOUBLE AS country,
       (('0x' || substr(h, 1, 8))::BIGINT - 2147483648)::DOUBLE AS w0,
       (('0x' || substr(h, 9, 8))::BIGINT - 2147483648)::DOUBLE AS w1,
       (('0x' || substr(h, 17, 8))::BIGINT - 2147483648)::DOUBLE AS w2,
       (('0x' || substr(h, 25, 8))::BIGINT - 2147483648)::DOUBLE AS w3
FROM (
  SELECT *, hex(id::BLOB) AS h
  FROM analyses
  WHERE domain_key = $domain_key
    AND day BETWEEN DATE '1970-01-01' + $from_day AND DATE '1970-01-01' + $to_day)
ORDER BY epoch_ms(answered_at) DESC, id DESC
