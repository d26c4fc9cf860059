-- Schema version 4: sentiment sums that do not depend on the order of the rows (issue 14).
--
-- A DOUBLE sum rounds at every addition, so the same mentions summed in another order (another
-- ingest order, another split into calls) could differ in the last bit. agg_entity_day.sent_sum is
-- now an exact fixed-point integer: the sum of every sentiment scaled by 2^70 (sentiment_fixed).
-- Any double sentiment of at least 2^-18 (about 0.0000038) is a whole multiple of 2^-70, so its
-- scaled value is exact; a smaller one is rounded to the nearest multiple of 2^-70 (an error below
-- 1e-21). Integer sums are exact and order-free. The reports divide by 2^70 in
-- src/queries/exact-mean.ts (SENTIMENT_SCALE); a test checks the two agree.
CREATE OR REPLACE MACRO sentiment_fixed(x) AS (x * 1180591620717411303424::DOUBLE)::HUGEINT;

-- A fixed-point sum as two doubles whose exact sum it is: the nearest double, then the rest.
CREATE OR REPLACE MACRO fixed_hi(s) AS s::DOUBLE;
CREATE OR REPLACE MACRO fixed_lo(s) AS (s - (s::DOUBLE)::HUGEINT)::DOUBLE;

-- The stored DOUBLE sums are recomputed from the mentions by the migration step (src/db/migrate.ts).
ALTER TABLE agg_entity_day ALTER sent_sum TYPE HUGEINT USING 0;
