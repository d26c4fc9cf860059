-- One domain's prompts and their topics, by prompt_idx (the signals, docs/API.md "GET
-- /api/v1/signals"): the topic codes of load_signal_counts hold while this list is unchanged; a
-- commit that changed it rebuilds the counts whole. Columns: prompt_idx INTEGER, topic VARCHAR.
-- Parameters: $domain_key INTEGER.
SELECT prompt_idx, topic FROM prompts WHERE domain_key = $domain_key ORDER BY prompt_idx
