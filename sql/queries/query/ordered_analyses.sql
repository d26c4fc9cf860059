-- GET /api/v1/query's order of one domain's analyses that pass the segment filters: by (block of
-- 16 days since 1970-01-01, prompt, channel, day, analysis_key), so that a window's analyses are the
-- few blocks it overlaps (read in a row) and in each block those of one prompt and channel come
-- together, by day (src/reports/query/facts.ts checks the block size, BLOCK_DAYS); `ord` is the
-- position in that order, the ordinal analyses.sql, mentions.sql and citations.sql of this folder
-- share.
-- A table macro in each connection's temporary catalog, created with segment_analyses
-- (src/db/database.ts). Arguments: the domain key; the country, topic and tag ('': not given).
CREATE OR REPLACE TEMP MACRO query_analyses(q_domain_key, q_country, q_topic, q_tag) AS TABLE
  SELECT a.analysis_key,
         (row_number() OVER (ORDER BY (a.day - DATE '1970-01-01') // 16, a.prompt_idx, a.channel, a.day,
                                        a.analysis_key) - 1)::INTEGER AS ord
  FROM analyses a
  SEMI JOIN segment_analyses(q_domain_key, -1, q_country, q_topic, q_tag) s ON s.analysis_key = a.analysis_key
  WHERE a.domain_key = q_domain_key
