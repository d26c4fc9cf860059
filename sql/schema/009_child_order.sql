-- Schema version 9: the rows of an analysis's mentions, citations, theme occurrences and fan-out
-- queries in analysis_key order, as the ingest steps now insert them. The answers listing
-- (docs/API.md, "GET /api/v1/answers") reads a page's details by key range, and DuckDB skips every
-- row group whose keys lie outside it; a file written before kept a call's rows in the order of the ingest's
-- hash joins, so that one large call (a file, an import) spread every key range over all its row
-- groups. Rewritten in place (the tables keep their definitions); the answer texts are read through
-- their index (version 8) and stay as they are.
CREATE TEMP TABLE reorder_mentions AS SELECT * FROM mentions;
DELETE FROM mentions;
INSERT INTO mentions SELECT * FROM reorder_mentions ORDER BY analysis_key;
DROP TABLE reorder_mentions;

CREATE TEMP TABLE reorder_citations AS SELECT * FROM citations;
DELETE FROM citations;
INSERT INTO citations SELECT * FROM reorder_citations ORDER BY analysis_key;
DROP TABLE reorder_citations;

CREATE TEMP TABLE reorder_theme_occurrences AS SELECT * FROM theme_occurrences;
DELETE FROM theme_occurrences;
INSERT INTO theme_occurrences SELECT * FROM reorder_theme_occurrences ORDER BY analysis_key;
DROP TABLE reorder_theme_occurrences;

CREATE TEMP TABLE reorder_fanout_queries AS SELECT * FROM fanout_queries;
DELETE FROM fanout_queries;
INSERT INTO fanout_queries SELECT * FROM reorder_fanout_queries ORDER BY analysis_key;
DROP TABLE reorder_fanout_queries;
