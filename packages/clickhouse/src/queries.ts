import type { DayRange, SessionDimension } from '@siteline/core';
import { addDays, clampDay, utcDay } from './days.js';
import { sqlDate, sqlInt, sqlString } from './escape.js';
import { SESSION_ATTRIBUTES, tableName, type SchemaTarget } from './schema.js';

/**
 * The SQL of every read, as pure functions of the range. Values enter only
 * through escape.ts. No CTEs, window functions or query parameters, so the
 * same text runs on ClickHouse 18.16 and on current servers.
 */

/** Columns of the session subquery for each breakdown dimension: a fixed map, never user input. */
const DIMENSION_COLUMNS: Record<SessionDimension, readonly string[]> = {
  referrerSource: ['referrer_source'],
  channel: ['channel'],
  countryCode: ['country_code'],
  deviceType: ['device_type'],
  browser: ['browser'],
  os: ['os'],
  utm: ['utm_source', 'utm_medium', 'utm_campaign'],
};

export const dimensionColumns = (dimension: SessionDimension): readonly string[] => DIMENSION_COLUMNS[dimension];

/**
 * Events whose instant is in `[startMs, endMs)`, as the contract defines. The
 * `day` bounds (one day wider, covering every UTC offset) only let
 * ClickHouse skip partitions and granules.
 */
function eventsIn(t: QueryTarget, r: DayRange): string {
  return `FROM ${tableName(t, 'events')} WHERE site_id = ${sqlString(r.siteId)}
    AND day >= ${sqlDate(clampDay(addDays(r.from, -1)))} AND day <= ${sqlDate(clampDay(addDays(r.to, 1)))}
    AND ts >= ${sqlInt(Math.max(0, r.startMs))} AND ts < ${sqlInt(Math.max(0, r.endMs))}`;
}

/**
 * What queries need to know besides the range: where the tables are and,
 * optionally, how long a session may last (`maxSessionDays`; absent: no
 * bound, every look-back is exact).
 */
export type QueryTarget = SchemaTarget & { maxSessionDays?: number };

/** `AND batch_day >= ...` bounding a look-back before `from`, or nothing when unbounded. */
function lookback(t: QueryTarget, from: string): string {
  return t.maxSessionDays === undefined ? '' : ` AND batch_day >= ${sqlDate(clampDay(addDays(from, -t.maxSessionDays)))}`;
}

/**
 * One row per session whose first event's day is in the range: `day`,
 * the session attributes, `bounce` (0/1) and `duration_ms`.
 * - candidates: sessions with a row (an insert of some of their events)
 *   whose earliest event falls in the range; partitions of the range only;
 * - minus candidates that also have a row before the range (they started
 *   earlier): only `session_id` and `batch_day` are read there, and the
 *   primary key (site_id, session_id, ...) skips granules without candidates;
 * - all rows of the rest from `from` on are merged (`-Merge`).
 * Sessions never span shards, so on a cluster this subquery runs to
 * completion on each shard (`distributed_group_by_no_merge`, local IN).
 */
export function sessionsIn(t: QueryTarget, r: DayRange): string {
  const sessions = tableName(t, 'sessions');
  const site = sqlString(r.siteId);
  const from = sqlDate(clampDay(r.from));
  const to = sqlDate(clampDay(r.to));
  const candidates = `SELECT session_id FROM ${sessions} WHERE site_id = ${site} AND batch_day >= ${from} AND batch_day <= ${to}`;
  const attrs = SESSION_ATTRIBUTES.map((c, i) => `tupleElement(fe, ${i + 2}) AS ${c}`).join(', ');
  return `SELECT session_id, argMinMerge(first_event) AS fe, tupleElement(fe, 1) AS day, ${attrs},
      toUInt8(sumMerge(pageviews) = 1 AND sumMerge(custom_events) = 0) AS bounce,
      maxMerge(last_ts) - minMerge(first_ts) AS duration_ms
    FROM ${sessions}
    WHERE site_id = ${site} AND batch_day >= ${from} AND session_id IN (${candidates})
      AND session_id NOT IN (SELECT session_id FROM ${sessions}
        WHERE site_id = ${site} AND batch_day < ${from}${lookback(t, r.from)} AND session_id IN (${candidates}))
    GROUP BY session_id
    HAVING day >= ${from} AND day <= ${to}`;
}

/** Per day: distinct visitors, sessions, bounces and summed duration of the sessions starting that day. */
export function sessionDaysSql(t: QueryTarget, r: DayRange): string {
  return `SELECT toString(day) AS d, uniqExact(visitor_id) AS visitors, count() AS sessions,
      sum(bounce) AS bounces, sum(duration_ms) AS durationMs
    FROM (${sessionsIn(t, r)}) GROUP BY day`;
}

/** Per day: pageview events. */
export function pageviewDaysSql(t: QueryTarget, r: DayRange): string {
  return `SELECT toString(day) AS d, count() AS pageviews ${eventsIn(t, r)} AND type = 'pageview' GROUP BY day`;
}

/** Per dimension value (`k0`, `k1`, ...): daily distinct visitors summed, and sessions. */
export function breakdownSql(t: QueryTarget, r: DayRange, dimension: SessionDimension): string {
  const cols = DIMENSION_COLUMNS[dimension];
  const keys = cols.map((_, i) => `k${i}`).join(', ');
  const named = cols.map((c, i) => `${c} AS k${i}`).join(', ');
  return `SELECT ${keys}, sum(v) AS visitors, sum(n) AS sessions FROM (
      SELECT ${named}, day, uniqExact(visitor_id) AS v, count() AS n FROM (${sessionsIn(t, r)}) GROUP BY ${keys}, day
    ) GROUP BY ${keys}`;
}

/** Per path: pageviews and daily distinct viewers summed. */
export function pageViewsSql(t: QueryTarget, r: DayRange): string {
  return `SELECT path, sum(pv) AS pageviews, sum(v) AS visitors FROM (
      SELECT path, day, count() AS pv, uniqExact(visitor_id) AS v ${eventsIn(t, r)} AND type = 'pageview' GROUP BY path, day
    ) GROUP BY path`;
}

/** Per entry path: sessions starting in the range and their bounces. */
export function pageEntriesSql(t: QueryTarget, r: DayRange): string {
  return `SELECT entry_path AS path, count() AS entrySessions, sum(bounce) AS entryBounces
    FROM (${sessionsIn(t, r)}) GROUP BY entry_path`;
}

/**
 * The last day any session with a pageview in the range reaches: the next
 * event after a pageview may lie days after the range end, and this bounds
 * the scan of `timeOnPageSql`.
 */
export function lastSessionDaySql(t: QueryTarget, r: DayRange): string {
  return `SELECT toString(maxMerge(last_day)) AS last FROM ${tableName(t, 'sessions')}
    WHERE site_id = ${sqlString(r.siteId)}${lookback(t, r.from)} AND session_id IN (SELECT session_id ${eventsIn(t, r)} AND type = 'pageview')`;
}

/**
 * Per path: pageviews in the range followed by another event of their
 * session, and the summed gaps to those next events. Without window
 * functions: each session's events are collected with `groupArray`, sorted
 * by (ts, seq), and each in-range pageview is paired with its successor.
 */
export function timeOnPageSql(t: QueryTarget, r: DayRange, lastDay: string): string {
  const start = sqlInt(Math.max(0, r.startMs));
  const end = sqlInt(Math.max(0, r.endMs));
  const counted = `type = 'pageview' AND ts >= ${start} AND ts < ${end}`;
  const upper = clampDay(lastDay > addDays(r.to, 1) ? lastDay : addDays(r.to, 1));
  return `SELECT tupleElement(g, 1) AS path, count() AS timedViews, sum(tupleElement(g, 2)) AS timeOnPageMs FROM (
      SELECT arrayJoin(gaps) AS g FROM (
        SELECT arrayMap(i -> (evs[i].4, toInt64(evs[i + 1].1) - toInt64(evs[i].1)),
            arrayFilter(i -> evs[i].3 = 1 AND i < length(evs),
              arrayEnumerate(arraySort(e -> (e.1, e.2), groupArray((ts, seq, toUInt8(${counted}), path))) AS evs))) AS gaps
        FROM ${tableName(t, 'events')}
        WHERE site_id = ${sqlString(r.siteId)} AND day >= ${sqlDate(clampDay(addDays(r.from, -1)))}
          AND day <= ${sqlDate(upper)} AND ts >= ${start}
          AND session_id IN (SELECT session_id ${eventsIn(t, r)} AND type = 'pageview')
        GROUP BY session_id HAVING max(${counted}) = 1
      )
    ) GROUP BY path`;
}

/** Custom events by name, optionally one name. */
export function customEventsSql(t: QueryTarget, r: DayRange, name?: string): string {
  const only = name === undefined ? '' : ` AND name = ${sqlString(name)}`;
  return `SELECT name, count() AS n ${eventsIn(t, r)} AND type = 'event'${only} GROUP BY name`;
}

/** Distinct visitors with a pageview at `since < ts <= until` (the caller answers 0 when `until < 0`). */
export function liveVisitorsSql(t: QueryTarget, siteId: string, sinceMs: number, untilMs: number): string {
  const since = Math.max(-1, sinceMs);
  return `SELECT uniqExact(visitor_id) AS live FROM ${tableName(t, 'events')}
    WHERE site_id = ${sqlString(siteId)} AND type = 'pageview'
      AND day >= ${sqlDate(clampDay(addDays(utcDay(Math.max(0, since)), -1)))}
      AND day <= ${sqlDate(clampDay(addDays(utcDay(untilMs), 1)))}
      AND ts ${since < 0 ? '>= 0' : `> ${sqlInt(since)}`} AND ts <= ${sqlInt(untilMs)}`;
}
