/**
 * The only way a value reaches SQL in this package. ClickHouse 18.16 has no
 * query parameters, so every string is written as a quoted literal by
 * `sqlString`, every integer by `sqlInt`, every day by `sqlDate` and every
 * database, table or cluster name by `sqlIdent`. Nothing else is spliced.
 * Bulk inserts send rows as data, never as SQL: `TabSeparated` fields made by
 * `tsvText` and `tsvInt`, or `JSONEachRow`.
 */

const HEX = '0123456789abcdef';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A ClickHouse string literal that reads back as exactly `value`.
 * Backslash and quote are backslash-escaped; every control character
 * (U+0000-U+001F, U+007F) becomes `\xHH`, so no byte of the literal can end
 * it early or be read as anything but data. Other characters, Unicode
 * included, pass through as UTF-8. A lone UTF-16 surrogate has no UTF-8 form
 * and would not round-trip, so it is refused.
 *
 * @example
 * sqlString("it's"); // "'it\\'s'"
 * `SELECT count() FROM events WHERE site_id = ${sqlString(siteId)}`;
 */
export function sqlString(value: string): string {
  if (typeof value !== 'string') throw new TypeError(`sqlString expects a string, got ${typeof value}`);
  if (LONE_SURROGATE.test(value)) throw new RangeError('sqlString: the string contains a lone UTF-16 surrogate');
  let out = "'";
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\' || ch === "'") out += `\\${ch}`;
    else if (code < 0x20 || code === 0x7f) out += `\\x${HEX[code >> 4]}${HEX[code & 15]}`;
    else out += ch;
  }
  return `${out}'`;
}

/**
 * An integer literal. Refuses anything that is not a safe integer (NaN,
 * fractions, strings, values past 2^53), so a number can never carry SQL.
 *
 * @example
 * `... WHERE ts > ${sqlInt(sinceMs)}`;
 */
export function sqlInt(value: number): string {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new TypeError(`sqlInt expects a safe integer, got ${String(value)}`);
  }
  return String(value);
}

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/**
 * A `Date` literal for a `YYYY-MM-DD` day: `toDate('2026-11-02')`.
 *
 * @example
 * `... WHERE day >= ${sqlDate(range.from)}`;
 */
export function sqlDate(day: string): string {
  if (typeof day !== 'string' || !DAY.test(day)) throw new TypeError(`sqlDate expects YYYY-MM-DD, got ${String(day)}`);
  return `toDate(${sqlString(day)})`;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * A database, table or cluster name, back-quoted. Only plain names
 * (`[A-Za-z_][A-Za-z0-9_]*`, at most 64 characters) are accepted: names come
 * from configuration, and a strict check beats escaping rules that differ
 * between server versions.
 *
 * @example
 * sqlIdent('siteline'); // '`siteline`'
 */
export function sqlIdent(name: string): string {
  if (typeof name !== 'string' || !IDENT.test(name)) {
    throw new TypeError(`Invalid ClickHouse identifier ${JSON.stringify(name)}: use letters, digits and _`);
  }
  return `\`${name}\``;
}

/**
 * A string field of a `TabSeparated` insert that reads back as exactly
 * `value`: backslash, tab, newline, carriage return and NUL are
 * backslash-escaped, so a field can never end early or split a row. (A lone
 * UTF-16 surrogate has no UTF-8 form; like every string Node writes, it
 * arrives as U+FFFD, which is also what the SQLite store keeps.)
 *
 * @example
 * const row = `${tsvText('ST-a')}\t${tsvInt(12)}\n`;
 */
export function tsvText(value: string): string {
  if (typeof value !== 'string') throw new TypeError(`tsvText expects a string, got ${typeof value}`);
  return TSV_SPECIAL.test(value) ? value.replace(TSV_SPECIAL_ALL, (ch) => TSV_ESCAPES[ch]!) : value;
}

/**
 * An `Array(String)` field of a `TabSeparated` insert that reads back as exactly
 * `values`: each string in single quotes with backslash, quote, tab, newline, carriage
 * return and NUL backslash-escaped (one level: ClickHouse reads an array field's strings
 * with the quoted-string rules, and no raw tab or newline is left to end the field).
 *
 * @example
 * tsvStrings(['plan', "it's"]); // "['plan','it\\'s']"
 */
export function tsvStrings(values: readonly string[]): string {
  let out = '[';
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (typeof value !== 'string') throw new TypeError(`tsvStrings expects strings, got ${typeof value}`);
    out += `${i > 0 ? ',' : ''}'${QUOTED_SPECIAL.test(value) ? value.replace(QUOTED_SPECIAL_ALL, (ch) => QUOTED_ESCAPES[ch]!) : value}'`;
  }
  return `${out}]`;
}

const QUOTED_SPECIAL = /[\\'\t\n\r\0]/;
const QUOTED_SPECIAL_ALL = /[\\'\t\n\r\0]/g;
const QUOTED_ESCAPES: Record<string, string> = { '\\': '\\\\', "'": "\\'", '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\\0' };

/**
 * A `LIKE` pattern matching exactly the paths a page goal's pattern matches
 * (`goalPatternMatches` of the core): `*` becomes `%`, and `%`, `_` and `\` are
 * backslash-escaped so they match only themselves. Pass the result through `sqlString`.
 *
 * @example likePattern('/blog_*'); // '/blog\\_%'
 */
export function likePattern(pattern: string): string {
  return pattern.replace(/[\\%_]/g, (ch) => `\\${ch}`).replaceAll('*', '%');
}

/** An integer field of a `TabSeparated` insert (safe integers only, as `sqlInt`). */
export const tsvInt = (value: number): string => sqlInt(value);

const TSV_SPECIAL = /[\\\t\n\r\0]/;
const TSV_SPECIAL_ALL = /[\\\t\n\r\0]/g;
const TSV_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\\0' };
