-- One domain's prompt topics, distinct, in the order of their codes in load_signal_counts (the
-- signals, docs/API.md "GET /api/v1/signals"). VARCHAR.
-- Parameters: $domain_key INTEGER.
SELECT topic FROM (SELECT DISTINCT topic FROM prompts WHERE domain_key = $domain_key AND topic IS NOT NULL)
ORDER BY topic
