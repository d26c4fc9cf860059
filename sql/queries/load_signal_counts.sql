-- One domain's daily counts per segment, for the signals (docs/API.md, "GET /api/v1/signals").
-- Read by src/reports/signals/query.ts; every column INTEGER.
-- Columns: day (days since 1970-01-01); kind (1 channel, 2 country, 3 topic); code (the channel's
-- number; the country's two letters as (first - 'A') * 26 + (second - 'A'); the topic's rank in
-- load_signal_topics, from 0); entity (-1: the analyses of the segment that day; otherwise the
-- entity_idx, 0 = the brand); n (analyses, or analyses mentioning the entity: one mention row per
-- analysis and entity). The segment `all` is the sum over the channels.
-- Parameters: $domain_key INTEGER; $from_day, $to_day INTEGER (days since 1970-01-01: the rows of
-- those days, both included; after a commit the rows of the days it changed are read again).
WITH a AS (
  SELECT a.analysis_key, a.day, a.channel, a.country, p.topic
  FROM analyses a JOIN prompts p ON p.domain_key = a.domain_key AND p.prompt_idx = a.prompt_idx
  WHERE a.domain_key = $domain_key
    AND a.day BETWEEN DATE '1970-01-01' + $from_day AND DATE '1970-01-01' + $to_day
), t AS (
  SELECT topic, (row_number() OVER (ORDER BY topic) - 1)::INTEGER AS code
  FROM (SELECT DISTINCT topic FROM prompts WHERE domain_key = $domain_key AND topic IS NOT NULL)
), seg AS (
  SELECT analysis_key, day, 1 AS kind, channel::INTEGER AS code FROM a
  UNION ALL
  SELECT analysis_key, day, 2, (ascii(country[1]) - 65) * 26 + ascii(country[2]) - 65 FROM a
  WHERE country IS NOT NULL
  UNION ALL
  SELECT a.analysis_key, a.day, 3, t.code FROM a JOIN t ON t.topic = a.topic
), counted AS (
  SELECT day, kind, code, -1 AS entity, count(*) AS n FROM seg GROUP BY day, kind, code
  UNION ALL
  SELECT s.day, s.kind, s.code, m.entity_idx, count(*)
  FROM seg s JOIN mentions m ON m.analysis_key = s.analysis_key
  WHERE m.domain_key = $domain_key
    AND m.day BETWEEN DATE '1970-01-01' + $from_day AND DATE '1970-01-01' + $to_day
  GROUP BY s.day, s.kind, s.code, m.entity_idx
)
SELECT (day - DATE '1970-01-01')::INTEGER AS day, kind::INTEGER AS kind, code::INTEGER AS code,
       entity::INTEGER AS entity, n::INTEGER AS n
FROM counted ORDER BY day, kind, code, entity
