/**
 * The one CSV writer (RFC 4180): fields separated by `,`, records ended by CRLF, a field
 * quoted with `"` when it holds `"`, `,`, CR or LF (a `"` inside doubled). The text is
 * UTF-8 without a byte-order mark once encoded.
 *
 * Text cells a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or
 * CR, OWASP's list) get a leading `'`, which spreadsheets show as text and never evaluate.
 * Numbers are written as numbers and never prefixed: a negative number is a value, not a
 * formula (the reports have none today; a prefix would turn it into text).
 */

/** A cell: numbers as they are, text neutralised and quoted as needed, absent as empty. */
export type CsvValue = string | number | null | undefined;

/** First characters that make a spreadsheet read a cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Characters that force a field to be quoted (RFC 4180 section 2, rule 6). */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One field as written in a record.
 * @example csvField('=1+1') // "'=1+1"
 * @example csvField('a,"b"') // '"a,""b"""'
 * @example csvField(-3) // '-3'
 */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A whole CSV text: the header record, then one record per row, each ended by CRLF.
 * @example toCsv(['url', 'pageviews'], [['/a', 3]]) // 'url,pageviews\r\n/a,3\r\n'
 */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  let text = `${header.map(csvField).join(',')}\r\n`;
  for (const row of rows) text += `${row.map(csvField).join(',')}\r\n`;
  return text;
}
