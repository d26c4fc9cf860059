-- Export of the flat table citations (semantics.md 1.2, extensions section 1) as Parquet,
-- hive-partitioned by the analysis's domain_id. `ord` is the entry's position in its analysis (the
-- import puts the rows back in that order: a partitioned write does not keep row order).
-- Parameters: $path VARCHAR (file or directory), $all BOOLEAN, $domain_ids VARCHAR[] (used when not $all).
COPY (
  SELECT a.id::VARCHAR AS analysis_id, c.url, t.text AS title, p.text AS page_type, c.ord,
         d.id::VARCHAR AS domain_id
  FROM citations c
  JOIN analyses a USING (analysis_key)
  JOIN domains d ON d.domain_key = c.domain_key
  LEFT JOIN texts t ON t.domain_key = c.domain_key AND t.kind = 3 AND t.idx = c.title_idx
  LEFT JOIN texts p ON p.domain_key = c.domain_key AND p.kind = 4 AND p.idx = c.page_type_idx
  WHERE $all OR list_contains($domain_ids, d.id::VARCHAR)
  ORDER BY domain_id, analysis_id, c.ord
) TO $path (FORMAT parquet, PARTITION_BY (domain_id), OVERWRITE_OR_IGNORE true)
