-- Schema version 8: the answers listing reads the texts of one page's analyses by key (docs/API.md,
-- "GET /api/v1/answers"). Without an index DuckDB joins the page's keys to the whole column,
-- decompressing every text of the row groups it cannot skip; with this ART index it fetches the
-- page's rows alone. The index holds keys only: a deleted analysis leaves no text in it.
CREATE INDEX IF NOT EXISTS analysis_responses_key ON analysis_responses (analysis_key);
