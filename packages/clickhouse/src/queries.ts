import type { DayRange, SessionDimension } from '@siteline/core';
import { addDays, clampDay, utcDay } from './days.js';
import { sqlDate, sqlInt, sqlString } from './escape.js';
import { DIMENSION_VALUE_SQL } from './migrations/002-rollups.js';
import { tableName, type SchemaTarget } from './schema.js';

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

/** A settled day and the build of its visitor counts. */
export interface Build {
  day: string;
  ver: number;
}

/** What a visitor count is grouped by: `''` the day's total, `page` a path, else a session dimension. */
export type VisitorDimension = '' | 'page' | SessionDimension;

const site = (r: DayRange) => `site_id = ${sqlString(r.siteId)}`;
const days = (r: DayRange) => `day >= ${sqlDate(clampDay(r.from))} AND day <= ${sqlDate(clampDay(r.to))}`;
const dayList = (list: readonly string[]) => list.map(sqlDate).join(', ');

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

/**
 * Per day (`d`) or value (`val`): visitors of the settled days, read from
 * the builds the caller found current. Each row is one day's finished count.
 */
export function builtVisitorsSql(t: SchemaTarget, r: DayRange, dimension: VisitorDimension, builds: readonly Build[]): string {
  const key = dimension === '' ? 'toString(day) AS d' : 'value AS val';
  const pairs = builds.map((b) => `(${sqlDate(b.day)}, ${sqlInt(b.ver)})`).join(', ');
  return `SELECT ${key}, sum(visitors) AS v FROM ${tableName(t, 'visitor_rollups')}
    WHERE ${site(r)} AND dimension = ${sqlString(dimension)} AND ${days(r)} AND (day, ver) IN (${pairs})
    GROUP BY ${dimension === '' ? 'day' : 'value'}`;
}

/**
 * Per day (`d`) or value (`val`): daily distinct visitors of the listed days
 * from the raw rows. Sessions: a visitor counts on a day (for a value) when
 * the signed rows of their sessions there sum above zero, i.e. one of them
 * is current. Pages: distinct visitors with a pageview of the path that day.
 */
export function rawVisitorsSql(t: SchemaTarget, r: DayRange, dimension: VisitorDimension, list: readonly string[]): string {
  const where = `${site(r)} AND day IN (${dayList(list)})`;
  if (dimension === 'page') {
    return `SELECT path AS val, sum(u) AS v FROM (
        SELECT path, day, uniqExact(visitor_id) AS u FROM ${tableName(t, 'events')} WHERE ${where} AND type = 'pageview' GROUP BY path, day
      ) GROUP BY path`;
  }
  const value = dimension === '' ? '' : `${DIMENSION_VALUE_SQL[dimension]} AS val, `;
  const outer = dimension === '' ? 'toString(day) AS d' : 'val';
  return `SELECT ${outer}, count() AS v FROM (
      SELECT ${value}day, visitor_id FROM ${tableName(t, 'sessions')} WHERE ${where}
      GROUP BY ${dimension === '' ? '' : 'val, '}day, visitor_id HAVING sum(sign) > 0
    ) GROUP BY ${dimension === '' ? 'day' : 'val'}`;
}

/** Distinct visitors with a pageview at `since < ts <= until` (the caller answers 0 when `until < 0`). */
export function liveVisitorsSql(t: SchemaTarget, siteId: string, sinceMs: number, untilMs: number): string {
  const since = Math.max(-1, sinceMs);
  return `SELECT uniqExact(visitor_id) AS live FROM ${tableName(t, 'events')}
    WHERE site_id = ${sqlString(siteId)} AND type = 'pageview'
      AND day >= ${sqlDate(clampDay(addDays(utcDay(Math.max(0, since)), -1)))}
      AND day <= ${sqlDate(clampDay(addDays(utcDay(untilMs), 1)))}
      AND ts ${since < 0 ? '>= 0' : `> ${sqlInt(since)}`} AND ts <= ${sqlInt(untilMs)}`;
}
