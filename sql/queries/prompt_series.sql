-- Prompt time series of one domain: the top $limit prompts by brand mentions in the window
-- (ties by prompt id), one row per (prompt, day with analyses).
-- Parameters: $domain_key INTEGER, $start_day INTEGER, $end_day INTEGER (days since 1970-01-01,
-- inclusive), $limit INTEGER.
-- Columns: rank, prompt_idx, day (days since epoch), responses, mentions, citations, pos_sum, pos_cnt.
WITH w AS (
  SELECT prompt_idx, day, responses, mentions, citations, pos_sum, pos_cnt
  FROM agg_prompt_day
  WHERE domain_key = $domain_key
    AND day BETWEEN DATE '1970-01-01' + $start_day AND DATE '1970-01-01' + $end_day
),
totals AS (
  SELECT prompt_idx, sum(mentions) AS total FROM w GROUP BY prompt_idx HAVING sum(mentions) > 0
),
top AS (
  SELECT t.prompt_idx, row_number() OVER (ORDER BY t.total DESC, p.id::VARCHAR ASC) AS rank
  FROM totals t
  JOIN prompts p ON p.domain_key = $domain_key AND p.prompt_idx = t.prompt_idx
  QUALIFY rank <= $limit
)
SELECT top.rank::INTEGER AS rank, w.prompt_idx, (w.day - DATE '1970-01-01')::INTEGER AS day,
       w.responses, w.mentions, w.citations, w.pos_sum::DOUBLE AS pos_sum, w.pos_cnt
FROM w JOIN top ON top.prompt_idx = w.prompt_idx
ORDER BY top.rank, w.day
