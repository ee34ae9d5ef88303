/**
 * The session breakdowns (`/referrers`, `/channels`, `/locations`, `/devices`, `/campaigns`)
 * under one session value (`country is DE`, one-value.ts), per settled day, in
 * `value_breakdowns` (schema version 16): for every value of a per-value attribute
 * (`VALUE_DIMENSIONS`), every path a session has a pageview of and every name of its custom
 * events (value-pages.ts `SESSION_KEYS`), and every value of a breakdown dimension, the sessions starting that day
 * with both and their distinct visitors, as the filtered read (reads/selection-sql.ts
 * `breakdownSql`) counts them: from the `sessions` rows, whose signs sum to the current
 * states, which carry the session's own attributes.
 *
 * Counting makes 42 pairs of every session (six values by seven breakdowns), and seven per path and event name: 0.28 s a day
 * for a site of 10M pageviews a year on two cores by the attributes alone (0.59 s with the paths and names, the goals and a
 * funnel counted beside them: docs/performance.md), too slow for the builds a read waits for
 * (up to three days). So, as goal counts (day-counts.ts), a day is counted in the background once it is
 * settled, one day a statement, and marked counted by a second statement; a read takes the
 * counted days from their rows and the rest raw, and has those counted.
 */
import type { SessionDimension } from '@siteline/core';
import { sqlDate, sqlString } from '../connection/escape.js';
import { DIMENSION_VALUE_SQL } from '../schema/migrations/002-rollups.js';
import { clampDay } from '../schema/days.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';
import type { DayRange } from '@siteline/core';
import { builtPairsSql } from '../reads/queries.js';
import { type BuiltDay, builtDaysSql, markerRowsSql, verSql } from './day-counts.js';
import { COUNTED_BY_KEYS, VALUE_DIMENSIONS } from './value-pages.js';

/** The dimensions a session breakdown reads (every session dimension but the entry page). */
export const BREAKDOWNS = ['referrerSource', 'channel', 'countryCode', 'deviceType', 'browser', 'os', 'utm'] as const satisfies readonly SessionDimension[];
export type ValueBreakdown = (typeof BREAKDOWNS)[number];

/** The `sessions` columns the pairs are made of. */
const ATTRIBUTES = ['referrer_source', 'channel', 'country_code', 'device_type', 'browser', 'os', 'utm_source', 'utm_medium', 'utm_campaign'];

/** Every (value dimension, breakdown) pair, in one order: the names and the SQL of each side. */
const PAIRS = VALUE_DIMENSIONS.flatMap((d) => BREAKDOWNS.map((b) => ({ d, b })));
const list = (items: readonly string[]) => `[${items.join(', ')}]`;

/**
 * The two statements that count the settled days `part` (each under its build id): the
 * counts, then their markers. The sessions' rows are first summed per day, visitor and set
 * of attributes (`live`: 1 for a current state, 0 for a replaced one), and the pairs made of
 * those rows as three parallel arrays (pair index, value, key): a visitor counts for a pair on
 * a day when one of their sets there with both values is current. (One array of tuples holds
 * them all at once: past 1.86 GB for 20 days of a 10M-a-year site on ClickHouse 18.16.)
 */
export function valueBreakdownsCountSql(t: SchemaTarget, siteId: string, part: readonly BuiltDay[]): [string, string] {
  const s = sqlString(siteId);
  const into = `INSERT INTO ${tableName(t, 'value_breakdowns')} (site_id, dimension, value, breakdown, day, ver, key, sessions, visitors)`;
  // The pairs of pages and event names (`SESSION_KEYS`): each element of the session's `paths` and `names` with each
  // breakdown's value. `replicate`: no lambda over outer columns on 18.16; `materialize`: 18.16's `arrayConcat` of a
  // `replicate` of a constant crashes the server.
  const each = (array: 'paths' | 'names', sql: (b: ValueBreakdown) => string) => BREAKDOWNS.map((b) => `replicate(${sql(b)}, ${array})`).join(', ');
  const elements = (array: 'paths' | 'names') => BREAKDOWNS.map(() => array).join(', ');
  const dimensions = `arrayConcat(${list(PAIRS.map((p) => `'${p.d}'`))}, ${each('paths', () => "materialize('page')")}, ${each('names', () => "materialize('event')")})`;
  const values = `arrayConcat(${list(PAIRS.map((p) => DIMENSION_VALUE_SQL[p.d]))}, ${elements('paths')}, ${elements('names')})`;
  const breakdowns = `arrayConcat(${list(PAIRS.map((p) => `'${p.b}'`))}, ${each('paths', (b) => `materialize('${b}')`)}, ${each('names', (b) => `materialize('${b}')`)})`;
  const keys = `arrayConcat(${list(PAIRS.map((p) => DIMENSION_VALUE_SQL[p.b]))}, ${each('paths', (b) => DIMENSION_VALUE_SQL[b])}, ${each('names', (b) => DIMENSION_VALUE_SQL[b])})`;
  return [
    `${into}
    SELECT ${s}, dm, v, bd, day, ${verSql(part, 'day')}, k, sum(live), uniqExactIf(visitor_id, live > 0)
    FROM (
      SELECT day, visitor_id, ${ATTRIBUTES.join(', ')}, paths, names, sum(toInt64(sign)) AS live FROM ${tableName(t, 'sessions')}
      WHERE site_id = ${s} AND day IN (${part.map((b) => sqlDate(b.day)).join(', ')}) GROUP BY day, visitor_id, ${ATTRIBUTES.join(', ')}, paths, names HAVING live != 0
    ) ARRAY JOIN ${dimensions} AS dm, ${values} AS v, ${breakdowns} AS bd, ${keys} AS k
    GROUP BY dm, v, bd, k, day HAVING sum(live) > 0`,
    `${into} ${markerRowsSql(part, [''], (day, ver) => `${s}, '', '${COUNTED_BY_KEYS}', '', ${day}, ${ver}, '', toInt64(0), toUInt64(0)`)}`,
  ];
}

/** The days among `built` (`d`) that have been counted: their marker rows. */
export function countedDaysSql(t: SchemaTarget, siteId: string, built: readonly BuiltDay[]): string {
  return `SELECT DISTINCT toString(day) AS d FROM ${tableName(t, 'value_breakdowns')}
    WHERE site_id = ${sqlString(siteId)} AND dimension = '' AND value = '${COUNTED_BY_KEYS}' AND ${builtDaysSql(built)}`;
}

/**
 * The breakdown of one value over the counted days `counted`, per key (`k`): sessions (`n`) and
 * daily visitors (`v`). A day may have been counted twice under its build (two reads that found
 * it uncounted at once, or two processes): every count of a build counts the same rows, so a
 * key's day is taken once, by its largest row, as goal counts are (day-counts.ts).
 */
export function valueBreakdownSql(t: SchemaTarget, r: DayRange, dimension: string, value: string, breakdown: ValueBreakdown, counted: readonly BuiltDay[]): string {
  return `SELECT k, sum(dn) AS n, sum(dv) AS v FROM (
      SELECT key AS k, day, max(sessions) AS dn, max(visitors) AS dv FROM ${tableName(t, 'value_breakdowns')}
      WHERE site_id = ${sqlString(r.siteId)} AND dimension = ${sqlString(dimension)} AND value = ${sqlString(value)} AND breakdown = ${sqlString(breakdown)}
        AND day >= ${sqlDate(clampDay(r.from))} AND day <= ${sqlDate(clampDay(r.to))} AND ${builtPairsSql({ built: [...counted], raw: [] })}
      GROUP BY key, day
    ) GROUP BY k`;
}
