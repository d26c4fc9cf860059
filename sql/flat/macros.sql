-- A macro of the flat import's checks (src/ingest/flat-sql.ts): a string trimmed of the
-- characters JavaScript's String.prototype.trim removes (white space and line terminators,
-- Unicode's included). Lengths need none: the record schemas (zod) count code points, as
-- DuckDB's length() does.
CREATE OR REPLACE TEMP MACRO js_trim(s) AS
  regexp_replace(s,
    '^[\t\n\x{0B}\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]+|[\t\n\x{0B}\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]+$',
    '', 'g');
