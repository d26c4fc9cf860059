-- One domain's prompt aggregates, by day: loaded into the in-memory aggregate cache.
-- Every column is DOUBLE, read straight into Float64Arrays. Parameters: $domain_key INTEGER. Columns: day (days since epoch), prompt_idx, responses, mentions,
-- citations, pos_sum, pos_cnt.
SELECT ((day - DATE '1970-01-01'))::DOUBLE AS day,
       (prompt_idx)::DOUBLE AS prompt_idx,
       (responses)::DOUBLE AS responses,
       (mentions)::DOUBLE AS mentions,
       (citations)::DOUBLE AS citations,
       (pos_sum)::DOUBLE AS pos_sum,
       (pos_cnt)::DOUBLE AS pos_cnt
FROM agg_prompt_day WHERE domain_key = $domain_key ORDER BY day, prompt_idx
