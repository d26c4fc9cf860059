-- One domain's analyses as GET /api/v1/query reads them (docs/API.md, "GET /api/v1/query"), by
-- (prompt, channel, day, analysis_key): the position in this order is the analysis's ordinal in
-- mentions.sql and citations.sql (the analyses of a prompt and channel are one run, by day, so the
-- groups a run adds to are few and stay in the CPU's cache). country_idx: the index of the country in countries.sql's list, -1 when none.
-- Read by src/reports/query/facts.ts; every column INTEGER NOT NULL.
-- Parameters: $domain_key INTEGER.
SELECT (a.day - DATE '1970-01-01')::INTEGER AS day,
       a.channel::INTEGER AS channel,
       a.model_key::INTEGER AS model_key,
       a.prompt_idx::INTEGER AS prompt_idx,
       (CASE WHEN a.country IS NULL THEN -1
             ELSE dense_rank() OVER (ORDER BY a.country NULLS LAST) - 1 END)::INTEGER AS country_idx
FROM analyses a
WHERE a.domain_key = $domain_key
ORDER BY a.prompt_idx, a.channel, a.day, a.analysis_key
