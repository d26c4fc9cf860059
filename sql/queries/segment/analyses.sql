-- The analyses of one domain that pass the segment filters (docs/API.md, "Segment filters"): the
-- one definition of "the analyses in the window that pass every given filter" the segment load
-- queries of this folder select from (`WITH seg AS (SELECT analysis_key FROM segment_analyses(...)`).
-- A table macro in each connection's temporary catalog, created when the connection opens
-- (src/db/database.ts). Arguments: the domain key; the model key (-1: any model); the country,
-- topic and tag ('': not given).
CREATE OR REPLACE TEMP MACRO segment_analyses(seg_domain_key, seg_model_key, seg_country, seg_topic, seg_tag) AS TABLE
  SELECT a.analysis_key
  FROM analyses a
  JOIN prompts p ON p.domain_key = a.domain_key AND p.prompt_idx = a.prompt_idx
  WHERE a.domain_key = seg_domain_key
    AND (seg_model_key < 0 OR a.model_key = seg_model_key)
    AND (seg_country = '' OR a.country = seg_country)
    AND (seg_topic = '' OR p.topic = seg_topic)
    AND (seg_tag = '' OR list_contains(p.tags, seg_tag))
