import type { DayRange } from '@siteline/core';
import { sqlDate, sqlString } from '../connection/escape.js';
import { DIMENSION_VALUE_SQL } from '../schema/migrations/002-rollups.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';
import { builtPairsSql, type VisitorSources } from '../reads/queries.js';
import { BOUNCE, DURATION, LIVE } from '../reads/selection-sql.js';
import { clampDay } from '../schema/days.js';

/**
 * `/pages` under one session value (`country is DE`, rollups/one-value.ts), per settled day,
 * in `value_pages` (schema version 15): each day's build (rollups.ts) counts, for every
 * value of the session attributes the rollups keep per value (`VALUE_DIMENSIONS`) and every
 * path, what the filtered read (reads/selection.ts `pages`) would count on that day:
 *
 * - pageviews and daily distinct visitors of the pageviews whose session has the value;
 * - timed views and time on page of those pageviews (`pageview_gaps`);
 * - sessions starting that day with the value, by entry path, and their bounces.
 *
 * A pageview and a gap row carry their session's attributes unless the session is stale
 * (`stale_sessions`, reads/matching.ts); a stale session's rows take the values of its current
 * state instead, as the filtered read matches them. The writer marks every day of a session
 * that becomes stale (its rows there change value), so no built day keeps an old value.
 */

/** The session attributes with per-value pages: those of one-value.ts. */
export const VALUE_DIMENSIONS = ['referrerSource', 'channel', 'countryCode', 'deviceType', 'browser', 'os'] as const;

/** `ARRAY JOIN` list of (dimension, value) of a row carrying session attributes. */
export const VALUE_PAIRS = `[${VALUE_DIMENSIONS.map((d) => `('${d}', ${DIMENSION_VALUE_SQL[d]})`).join(', ')}]`;

/**
 * The (dimension, value) pairs of a session's `paths` and `names` (SQL arrays): a ('page',
 * path) pair per path it has a pageview of and an ('event', name) pair per name of its custom
 * events, whatever their day: the sessions `page is path`, `event is name` and a goal condition
 * on an event goal select.
 */
const eventKeys = (names: string) => `arrayMap(n -> ('event', n), ${names})`;
const contentKeys = (paths: string, names: string) => `arrayConcat(arrayMap(p -> ('page', p), ${paths}), ${eventKeys(names)})`;

/** `ARRAY JOIN` list of the keys of a `sessions` row: its attributes' (`VALUE_PAIRS`), its paths' and its event names'. */
export const SESSION_KEYS = `arrayConcat(${VALUE_PAIRS}, ${contentKeys('paths', 'names')})`;

/**
 * The `value` of the marker rows of the counts by session key (value-breakdowns.ts,
 * value-goals.ts): the day was counted by every key of `SESSION_KEYS`. (Markers of schema
 * versions 16 and 17 have '': counted by the attributes alone, so the day is counted again.)
 */
export const COUNTED_BY_KEYS = 'pages events';

/**
 * The rows of `table` (`events` pageviews, `custom_events` or `pageview_gaps`) on the listed
 * days that pass `terms` (SQL on the row, `1` for all), each with its session's value of every
 * dimension (`dv`) and the `columns` asked: a non-stale session's own columns, a stale one's
 * current state (the `sessions` rows of its newest version, which starts by the last day and
 * ends on or after the first). With `pageKeys`, also under each event name of its session's
 * current state (`dv` ('event', name), as `SESSION_KEYS`) and under pages (`dv` ('page',
 * path)): `sessions`, every path of its session's current state (the events of the sessions
 * `page is path` selects); `own`, the row's own path (the pageviews that condition selects
 * among those sessions').
 */
export function withValuesSql(
  t: SchemaTarget, siteId: string, days: readonly string[], table: 'events' | 'custom_events' | 'pageview_gaps', columns: string, terms = '1',
  pageKeys?: 'sessions' | 'own',
): string {
  const s = sqlString(siteId);
  const list = days.map(sqlDate).join(', ');
  const sorted = [...days].sort();
  const from = tableName(t, table);
  const where = `site_id = ${s} AND day IN (${list})${table === 'events' ? " AND type = 'pageview'" : ''} AND ${terms}`;
  const stale = `SELECT session_id FROM ${tableName(t, 'stale_sessions')} WHERE site_id = ${s}`;
  const touching = `site_id = ${s} AND day <= ${sqlDate(clampDay(sorted[sorted.length - 1]!))} AND end_day >= ${sqlDate(clampDay(sorted[0]!))}`;
  const current = `SELECT session_id, dv FROM ${tableName(t, 'sessions')} ARRAY JOIN ${VALUE_PAIRS} AS dv
    WHERE ${touching} AND session_id IN (${stale})
    GROUP BY session_id, version, dv HAVING sum(sign) > 0`;
  const values = `SELECT ${columns}, dv FROM ${from} ARRAY JOIN ${VALUE_PAIRS} AS dv WHERE ${where} AND session_id NOT IN (${stale})
    UNION ALL
    SELECT ${columns}, dv FROM (SELECT ${columns}, session_id FROM ${from} WHERE ${where} AND session_id IN (${stale})) AS staled
      ALL INNER JOIN (${current}) AS current USING session_id`;
  if (!pageKeys) return values;
  // A state's rows carry the same paths and names; the current state's are the session's (stale or not).
  const keys = `SELECT session_id, dv FROM (
      SELECT session_id, any(paths) AS ps, any(names) AS ns FROM ${tableName(t, 'sessions')} WHERE ${touching} GROUP BY session_id, version HAVING sum(sign) > 0
    ) ARRAY JOIN ${pageKeys === 'own' ? eventKeys('ns') : contentKeys('ps', 'ns')} AS dv`;
  const ownPaths = pageKeys === 'own' ? `
    UNION ALL
    SELECT ${columns}, ('page', path) AS dv FROM ${from} WHERE ${where}` : '';
  return `${values}${ownPaths}
    UNION ALL
    SELECT ${columns}, dv FROM (SELECT ${columns}, session_id FROM ${from} WHERE ${where}) AS picked
      ALL INNER JOIN (${keys}) AS keyed USING session_id`;
}

/**
 * The `INSERT ... SELECT` of the listed days' `value_pages` rows, each under its build id
 * (`ver`, an SQL expression of `day`). Sums that cancel out (a session state replaced by
 * another, whose rows sum to nothing) leave no row.
 */
export function valuePagesBuildSql(t: SchemaTarget, siteId: string, days: readonly string[], ver: string): string {
  const s = sqlString(siteId);
  const row = (counts: string) => `SELECT ${s}, tupleElement(dv, 1), tupleElement(dv, 2), day, ${ver}, ${counts}`;
  return `INSERT INTO ${tableName(t, 'value_pages')}
      (site_id, dimension, value, day, ver, path, pageviews, visitors, timed_views, time_on_page_ms, entries, bounces)
    ${row('path, count(), uniqExact(visitor_id), toInt64(0), toInt64(0), toInt64(0), toInt64(0)')}
      FROM (${withValuesSql(t, siteId, days, 'events', 'day, path, visitor_id', '1', 'own')}) GROUP BY day, dv, path
    UNION ALL
    ${row('path, toUInt64(0), toUInt64(0), sum(timed), sum(gap_ms), toInt64(0), toInt64(0)')}
      FROM (${withValuesSql(t, siteId, days, 'pageview_gaps', 'day, path, timed, gap_ms', '1', 'own')}) GROUP BY day, dv, path
      HAVING sum(timed) != 0 OR sum(gap_ms) != 0
    UNION ALL
    ${row(`entry_path, toUInt64(0), toUInt64(0), toInt64(0), toInt64(0), sum(${LIVE}), sum(${BOUNCE})`)}
      FROM ${tableName(t, 'sessions')} ARRAY JOIN ${SESSION_KEYS} AS dv
      WHERE site_id = ${s} AND day IN (${days.map(sqlDate).join(', ')}) GROUP BY day, dv, entry_path HAVING sum(${LIVE}) != 0`;
}

/**
 * The `INSERT ... SELECT` of the listed days' `key_sessions` rows, each under its build id
 * (`ver`, an SQL expression of `day`): per page and per event name (the keys of a session's
 * `paths` and `names`), the sessions starting that day with a pageview of it or a custom event
 * of that name, their bounces and duration, and their daily distinct visitors (a visitor counts
 * when the signs of their rows there sum above zero), as the filtered read
 * (reads/selection-sql.ts `sessionDaysSql`) counts them under `page is path` or `event is name`.
 */
export function keySessionsBuildSql(t: SchemaTarget, siteId: string, days: readonly string[], ver: string): string {
  return `INSERT INTO ${tableName(t, 'key_sessions')} (site_id, dimension, value, day, ver, sessions, bounces, duration_ms, visitors)
    SELECT ${sqlString(siteId)}, tupleElement(kv, 1), tupleElement(kv, 2), day, ${ver}, sum(live), sum(bounced), sum(dur), countIf(live > 0) FROM (
      SELECT kv, day, visitor_id, sum(${LIVE}) AS live, sum(${BOUNCE}) AS bounced, sum(${DURATION}) AS dur
      FROM ${tableName(t, 'sessions')} ARRAY JOIN ${contentKeys('paths', 'names')} AS kv
      WHERE site_id = ${sqlString(siteId)} AND day IN (${days.map(sqlDate).join(', ')}) GROUP BY kv, day, visitor_id
    ) GROUP BY kv, day HAVING sum(live) > 0`;
}

/**
 * Per built day of `sources` (`d`), the sessions (`n`), bounces (`b`), duration (`dur`) and
 * daily visitors (`v`) of the sessions with the key `dimension` ('page' or 'event') `value` (`key_sessions`).
 */
export function keySessionDaysSql(t: SchemaTarget, r: DayRange, dimension: 'page' | 'event', value: string, sources: VisitorSources): string {
  return `SELECT toString(day) AS d, sum(sessions) AS n, sum(bounces) AS b, sum(duration_ms) AS dur, sum(visitors) AS v FROM ${tableName(t, 'key_sessions')}
    WHERE site_id = ${sqlString(r.siteId)} AND dimension = ${sqlString(dimension)} AND value = ${sqlString(value)}
      AND day >= ${sqlDate(clampDay(r.from))} AND day <= ${sqlDate(clampDay(r.to))} AND ${builtPairsSql(sources)}
    GROUP BY day`;
}

/**
 * The pages of one value over the built days of `sources`, per path (`p`): pageviews (`pv`),
 * visitors (`vis`, daily distinct summed), timed views (`tv`), time on page (`tm`), entries
 * (`en`) and bounces (`bo`).
 */
export function valuePagesSql(t: SchemaTarget, r: DayRange, dimension: string, value: string, sources: VisitorSources): string {
  return `SELECT path AS p, sum(pageviews) AS pv, sum(visitors) AS vis, sum(timed_views) AS tv, sum(time_on_page_ms) AS tm,
      sum(entries) AS en, sum(bounces) AS bo
    FROM ${tableName(t, 'value_pages')}
    WHERE site_id = ${sqlString(r.siteId)} AND dimension = ${sqlString(dimension)} AND value = ${sqlString(value)}
      AND day >= ${sqlDate(clampDay(r.from))} AND day <= ${sqlDate(clampDay(r.to))} AND ${builtPairsSql(sources)}
    GROUP BY path`;
}

/**
 * The pageviews of one value per built day of `sources` (`d`, `pv`): the value's `value_pages`
 * rows summed over paths (a pageview counted on its own day, under its session's value).
 */
export function valuePageviewDaysSql(t: SchemaTarget, r: DayRange, dimension: string, value: string, sources: VisitorSources): string {
  return `SELECT toString(day) AS d, sum(pageviews) AS pv FROM ${tableName(t, 'value_pages')}
    WHERE site_id = ${sqlString(r.siteId)} AND dimension = ${sqlString(dimension)} AND value = ${sqlString(value)}
      AND day >= ${sqlDate(clampDay(r.from))} AND day <= ${sqlDate(clampDay(r.to))} AND ${builtPairsSql(sources)}
    GROUP BY day`;
}
