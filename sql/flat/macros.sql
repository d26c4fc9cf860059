-- Macros of the flat import's checks (src/ingest/flat-sql.ts): a string's length in UTF-16 code
-- units (what the record schemas count: a character outside the BMP counts two), and a string
-- trimmed of the characters JavaScript's String.prototype.trim removes (white space and line
-- terminators, Unicode's included).
CREATE OR REPLACE TEMP MACRO utf16_length(s) AS
  CASE WHEN strlen(s) = length(s) THEN length(s)
       ELSE length(s) + length(regexp_replace(s, '[^\x{10000}-\x{10FFFF}]', '', 'g')) END;
CREATE OR REPLACE TEMP MACRO js_trim(s) AS
  regexp_replace(s,
    '^[\t\n\x{0B}\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]+|[\t\n\x{0B}\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]+$',
    '', 'g');
