-- Checks the fact tables of a flat import (flat_analyses, flat_mentions_k, flat_citations_k,
-- flat_theme_occurrences_k, flat_fanout_queries_k: src/ingest/flat-sql.ts) against the rules of the
-- record schemas (docs/API.md, "Ingest: records"), as a count of rows (or of distinct values) that
-- break one, per kind. A rule on a column of few distinct values (ids of domains, prompts,
-- competitors, themes; models, channels, countries, fan-out queries) is checked once per distinct
-- value, not per row; repeats are found by GROUP BY (a DISTINCT of a struct costs several times more).
-- Sound, not complete: a row counted here may still be one the record validator accepts (then
-- the call takes the record path, which names every problem); a row it passes, the validator
-- passes too. Cited URLs are checked in JS (the URL pattern is a JavaScript regular expression).
-- Parameters: $uuid_re, $model_re, $answered_re VARCHAR (the schemas' own patterns, written for
-- both engines), $channels VARCHAR[], $country_re VARCHAR, $response_max INTEGER. A response is
-- vouched for when its UTF-8 bytes (strlen) are at most the limit: never fewer bytes than UTF-16
-- code units, so it is within the schema's limit too (a longer one takes the record path).
-- Runs after keys.sql (child rows carry their analysis's seq).
SELECT
  ((SELECT count(*) FROM flat_analyses
    WHERE NOT coalesce(regexp_full_match(id, $uuid_re) AND regexp_full_match(answered_at, $answered_re)
      AND (response IS NULL OR strlen(response) <= $response_max), false))
   + (SELECT count(*) FROM (SELECT DISTINCT domain_id, prompt_id, channel, model, country FROM flat_analyses)
      WHERE NOT coalesce(regexp_full_match(domain_id, $uuid_re) AND regexp_full_match(prompt_id, $uuid_re)
        AND list_contains($channels, channel) AND regexp_full_match(model, $model_re)
        AND (country IS NULL OR regexp_full_match(country, $country_re)), false))
  )::INTEGER AS analyses,
  (SELECT count(*) FROM flat_ids WHERE n > 1)::INTEGER AS repeated_analyses,
  ((SELECT count(*) FROM flat_mentions_k
    WHERE NOT coalesce((position IS NULL OR (position = floor(position) AND position BETWEEN 1 AND 2147483647))
      AND (sentiment IS NULL OR (isfinite(sentiment) AND sentiment BETWEEN 0 AND 100)), false))
   + (SELECT count(*) FROM (SELECT DISTINCT entity_id FROM flat_mentions_k)
      WHERE NOT coalesce(entity_id = 'brand' OR regexp_full_match(entity_id, $uuid_re), false))
  )::INTEGER AS mentions,
  (SELECT count(*) FROM (SELECT seq FROM flat_mentions_k GROUP BY seq, lower(entity_id) HAVING count(*) > 1))::INTEGER
    AS repeated_mentions,
  (SELECT count(*) FROM flat_citations_k
   WHERE NOT coalesce(url IS NOT NULL
     AND (title IS NULL OR (length(title) >= 1 AND length(title) <= $title_max))
     AND (page_type IS NULL OR (length(page_type) >= 1 AND length(page_type) <= $page_type_max))
     AND (ord IS NULL OR NOT isnan(ord::DOUBLE)), false)
  )::INTEGER AS citations,
  ((SELECT count(*) FROM flat_theme_occurrences_k
    WHERE NOT coalesce(occurrences = floor(occurrences) AND occurrences BETWEEN 1 AND 2147483647, false))
   + (SELECT count(*) FROM (SELECT DISTINCT theme_id FROM flat_theme_occurrences_k)
      WHERE NOT coalesce(regexp_full_match(theme_id, $uuid_re), false))
  )::INTEGER AS theme_occurrences,
  (SELECT count(*) FROM (SELECT seq FROM flat_theme_occurrences_k GROUP BY seq, lower(theme_id) HAVING count(*) > 1))::INTEGER
    AS repeated_themes,
  ((SELECT count(*) FROM flat_fanout_queries_k WHERE NOT coalesce(ord IS NULL OR NOT isnan(ord::DOUBLE), false))
   + (SELECT count(*) FROM (SELECT DISTINCT query FROM flat_fanout_queries_k)
      WHERE NOT coalesce(length(js_trim(query)) BETWEEN 1 AND $fanout_query_max, false))
  )::INTEGER AS fanout_queries,
  (SELECT count(*) FROM (SELECT seq FROM flat_fanout_queries_k GROUP BY ALL
                         HAVING count(*) > $fanout_max_queries))::INTEGER AS long_fanout,
  ((SELECT count(*) FROM flat_mentions_k WHERE seq IS NULL)
   + (SELECT count(*) FROM flat_citations_k WHERE seq IS NULL)
   + (SELECT count(*) FROM flat_theme_occurrences_k WHERE seq IS NULL)
   + (SELECT count(*) FROM flat_fanout_queries_k WHERE seq IS NULL))::INTEGER AS orphans
