-- GET /api/v1/query's order of one domain's analyses that pass the segment filters: by (prompt,
-- channel, day, analysis_key), each prompt and channel a run, by day; `ord` is the position in that
-- order, the ordinal analyses.sql, mentions.sql and citations.sql of this folder share.
-- A table macro in each connection's temporary catalog, created with segment_analyses
-- (src/db/database.ts). Arguments: the domain key; the country, topic and tag ('': not given).
CREATE OR REPLACE TEMP MACRO query_analyses(q_domain_key, q_country, q_topic, q_tag) AS TABLE
  SELECT a.analysis_key,
         (row_number() OVER (ORDER BY a.prompt_idx, a.channel, a.day, a.analysis_key) - 1)::INTEGER AS ord
  FROM analyses a
  SEMI JOIN segment_analyses(q_domain_key, -1, q_country, q_topic, q_tag) s ON s.analysis_key = a.analysis_key
  WHERE a.domain_key = q_domain_key
