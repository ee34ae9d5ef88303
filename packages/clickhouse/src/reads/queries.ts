import type { DayRange, SessionDimension } from '@siteline/core';
import { addDays, clampDay, utcDay } from '../schema/days.js';
import { sqlDate, sqlInt, sqlString } from '../connection/escape.js';
import { DIMENSION_VALUE_SQL, type RollupDimension } from '../schema/migrations/002-rollups.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';

/**
 * The SQL of every read, as pure functions. Values enter only through
 * escape.ts. No CTEs, window functions or query parameters, so the same text
 * runs on ClickHouse 18.16 and on current servers. Output aliases never
 * repeat a column name of the table read (18.16 substitutes aliases
 * everywhere in the query).
 *
 * Sums come from the additive rollups (`day_totals`, `dim_totals`,
 * `page_totals`, `event_totals`) of the range's days; daily distinct
 * visitors from `visitor_rollups` for settled days and from the raw rows
 * (`sessions`, `events`) of the others (see rollups.ts).
 */

/** What a visitor count is grouped by: `''` the day's total, `page` a path, else a session dimension. */
export type VisitorDimension = '' | 'page' | SessionDimension;

/** Build ids are `writes x VER_STEP + a random part below VER_STEP` (see rollups.ts). */
export const VER_STEP = 1_000_000;

/** True when a day's newest build (`ver`, 0 for none) counted every write the day has had. */
export const isSettled = (writes: number, ver: number): boolean => writes > 0 && Math.floor(ver / VER_STEP) === writes;

const site = (r: DayRange) => `site_id = ${sqlString(r.siteId)}`;
const days = (r: DayRange) => `day >= ${sqlDate(clampDay(r.from))} AND day <= ${sqlDate(clampDay(r.to))}`;

/** Per day (`d`): sessions, bounces, summed duration and pageviews. */
export function daySumsSql(t: SchemaTarget, r: DayRange): string {
  return `SELECT toString(day) AS d, sum(sessions) AS n, sum(bounces) AS b, sum(duration_ms) AS dur, sum(pageviews) AS pv
    FROM ${tableName(t, 'day_totals')} WHERE ${site(r)} AND ${days(r)} GROUP BY day`;
}

/** Per value of a session dimension (`val`; `utm` joined by NUL): sessions and bounces, values with sessions only. */
export function dimensionSumsSql(t: SchemaTarget, r: DayRange, dimension: SessionDimension | 'entryPath'): string {
  return `SELECT value AS val, sum(sessions) AS n, sum(bounces) AS b FROM ${tableName(t, 'dim_totals')}
    WHERE ${site(r)} AND dimension = ${sqlString(dimension)} AND ${days(r)} GROUP BY value HAVING n != 0`;
}

/**
 * Per day (`d`) with sessions: sessions, bounces and summed duration of the sessions whose
 * `dimension` is `value` (one condition `is value`, rollups/one-value.ts).
 */
export function valueDaySumsSql(t: SchemaTarget, r: DayRange, dimension: RollupDimension, value: string): string {
  return `SELECT toString(day) AS d, sum(sessions) AS n, sum(bounces) AS b, sum(duration_ms) AS dur FROM ${tableName(t, 'dim_totals')}
    WHERE ${site(r)} AND dimension = ${sqlString(dimension)} AND value = ${sqlString(value)} AND ${days(r)} GROUP BY day HAVING n > 0`;
}

/** Per path with pageviews: pageviews, timed views and time on page. */
export function pageSumsSql(t: SchemaTarget, r: DayRange): string {
  return `SELECT path AS p, sum(pageviews) AS pv, sum(timed_views) AS tv, sum(time_on_page_ms) AS tm
    FROM ${tableName(t, 'page_totals')} WHERE ${site(r)} AND ${days(r)} GROUP BY path HAVING pv > 0`;
}

/** Custom events by name (`nm`), optionally one name. */
export function eventSumsSql(t: SchemaTarget, r: DayRange, name?: string): string {
  const only = name === undefined ? '' : ` AND name = ${sqlString(name)}`;
  return `SELECT name AS nm, sum(custom_events) AS n FROM ${tableName(t, 'event_totals')}
    WHERE ${site(r)} AND ${days(r)}${only} GROUP BY name HAVING n > 0`;
}

/** Per listed day (`d`): its sessions (`n`), to size visitor builds. */
export function daySessionsSql(t: SchemaTarget, siteId: string, list: readonly string[]): string {
  return `SELECT day AS d, sum(sessions) AS n FROM ${tableName(t, 'day_totals')}
    WHERE site_id = ${sqlString(siteId)} AND day IN (${list.map(sqlDate).join(', ')}) GROUP BY day`;
}

/**
 * Per day of `[from, to]` with data (`d`): writes so far (`w`) and the newest
 * build id (`vm`, 0 when none).
 */
export function dayStatesSql(t: SchemaTarget, siteId: string, from: string, to: string): string {
  const where = `site_id = ${sqlString(siteId)} AND day >= ${sqlDate(clampDay(from))} AND day <= ${sqlDate(clampDay(to))}`;
  return `SELECT day AS d, sum(writes) AS w, max(ver) AS vm FROM ${tableName(t, 'day_marks')} WHERE ${where} GROUP BY day`;
}

/** Where each day's visitor counts come from: settled days from their newest build, the others from the raw rows. */
export interface VisitorSources {
  built: { day: string; ver: number }[];
  raw: string[];
}

/**
 * Daily distinct visitors per day (`k` = the day) or per value (`k` = the
 * value; `page`: the path), summed over the range, in one query over the
 * days the caller sorted out (lists, not subqueries: the sorting must be one
 * snapshot, and two subqueries of one query are two reads). Sessions: a
 * visitor counts on a day (for a value) when the signed rows of their
 * sessions there sum above zero, i.e. one of them is current. Pages: distinct
 * visitors with a pageview of the path that day. With `value` (a session
 * dimension only), the visitors of the sessions whose `dimension` is `value`,
 * per day (`k` = the day).
 */
export function visitorsSql(t: SchemaTarget, r: DayRange, dimension: VisitorDimension, sources: VisitorSources, value?: string): string {
  if (value !== undefined && (dimension === '' || dimension === 'page')) throw new Error('a visitor count for one value takes a session dimension');
  const byDay = dimension === '' || value !== undefined;
  const parts: string[] = [];
  if (sources.built.length > 0) {
    const only = value === undefined ? '' : ` AND value = ${sqlString(value)}`;
    parts.push(`SELECT ${byDay ? 'toString(day)' : 'value'} AS k, visitors AS v FROM ${tableName(t, 'visitor_rollups')}
      WHERE ${site(r)} AND dimension = ${sqlString(dimension)}${only} AND ${days(r)} AND ${builtPairsSql(sources)}`);
  }
  if (sources.raw.length > 0) {
    const rawDays = `${site(r)} AND day IN (${sources.raw.map(sqlDate).join(', ')})`;
    if (dimension === 'page') {
      parts.push(`SELECT path AS k, uniqExact(visitor_id) AS v FROM ${tableName(t, 'events')}
        WHERE ${rawDays} AND type = 'pageview' GROUP BY path, day`);
    } else {
      const attribute = dimension === '' ? '' : DIMENSION_VALUE_SQL[dimension];
      const only = value === undefined ? '' : ` AND ${attribute} = ${sqlString(value)}`;
      parts.push(`SELECT k, count() AS v FROM (
          SELECT ${byDay ? 'toString(day)' : attribute} AS k, day, visitor_id FROM ${tableName(t, 'sessions')} WHERE ${rawDays}${only}
          GROUP BY k, day, visitor_id HAVING sum(sign) > 0
        ) GROUP BY k, day`);
    }
  }
  return `SELECT k, sum(v) AS n FROM (${parts.join(' UNION ALL ')}) GROUP BY k`;
}

/** `(day, ver) IN (...)`: the settled days of `sources`, each from its newest build. */
export const builtPairsSql = (sources: VisitorSources): string => `(day, ver) IN (${sources.built.map((b) => `(${sqlDate(b.day)}, ${sqlInt(b.ver)})`).join(', ')})`;

/** Distinct visitors with a pageview at `since < ts <= until` (the caller answers 0 when `until < 0`). */
export function liveVisitorsSql(t: SchemaTarget, siteId: string, sinceMs: number, untilMs: number): string {
  const since = Math.max(-1, sinceMs);
  return `SELECT uniqExact(visitor_id) AS live FROM ${tableName(t, 'events')}
    WHERE site_id = ${sqlString(siteId)} AND type = 'pageview'
      AND day >= ${sqlDate(clampDay(addDays(utcDay(Math.max(0, since)), -1)))}
      AND day <= ${sqlDate(clampDay(addDays(utcDay(untilMs), 1)))}
      AND ts ${since < 0 ? '>= 0' : `> ${sqlInt(since)}`} AND ts <= ${sqlInt(untilMs)}`;
}
