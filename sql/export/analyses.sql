-- Export of the flat table analyses (semantics.md 1.2; country and response: docs/API.md, "Ingest:
-- records") as Parquet, hive-partitioned by domain_id.
-- Row groups of 8192 rows: a reader holds a row group's column whole, and with answer texts of a
-- few KB a larger one does not fit a 160 MB memory limit (src/parquet.ts reads them one at a time).
-- Parameters: $path VARCHAR (file or directory), $all BOOLEAN, $domain_ids VARCHAR[] (used when not $all).
COPY (
  SELECT a.id::VARCHAR AS id, d.id::VARCHAR AS domain_id, p.id::VARCHAR AS prompt_id,
         (['chatgpt', 'perplexity', 'gemini', 'claude', 'copilot', 'google-ai-overviews', 'google-ai-mode'])[a.channel] AS channel,
         m.model, a.answered_at, a.country, r.response
  FROM analyses a
  JOIN domains d USING (domain_key)
  JOIN prompts p ON p.domain_key = a.domain_key AND p.prompt_idx = a.prompt_idx
  JOIN models m USING (model_key)
  LEFT JOIN analysis_responses r ON r.analysis_key = a.analysis_key
  WHERE $all OR list_contains($domain_ids, d.id::VARCHAR)
  ORDER BY domain_id, a.day, id
) TO $path (FORMAT parquet, PARTITION_BY (domain_id), OVERWRITE_OR_IGNORE true, ROW_GROUP_SIZE 8192)
