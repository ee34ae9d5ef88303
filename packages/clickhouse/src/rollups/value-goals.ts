/**
 * `/goals` and `/funnels` under one session value (`country is DE`, one-value.ts), per settled
 * day, in `value_goals` (schema version 17): for every value of a per-value attribute
 * (`VALUE_DIMENSIONS`), every path a session has a pageview of and every name of its custom
 * events (the keys of value-pages.ts `SESSION_KEYS`), what the filtered reads count that day.
 *
 * - A goal (`kind` 'goal', `key` as `goalKey`; reads/properties.ts `goalVisitorsSql`,
 *   `conversionsSql`): its conversions, the day's events meeting it whose session has the
 *   value (a pageview or custom event carries its session's attributes; a stale session's rows
 *   take its current state, as in value-pages.ts `withValuesSql`); and its visitors: per
 *   visitor, the signs of the rows of their sessions starting that day with the value that
 *   convert on it, summed, counted when above zero.
 * - A step of a saved funnel (`kind` 'funnel', `key` as `stepValue`; reads/funnels.ts): the
 *   visitors of the sessions starting that day with the value that reach it.
 *
 * Goals and funnels are site settings, so, as their unfiltered counts (day-counts.ts), a day is
 * counted in the background once a read or an import finds it settled and uncounted for a key,
 * one day a statement, and marked counted per key by a last statement. Every figure is a sum
 * over days (conversions by the event's day, visitors by the session's start day), so a read
 * adds the counted days' rows to the raw read of the others.
 */
import type { DayRange, GoalDefinition } from '@siteline/core';
import { sqlDate, sqlString } from '../connection/escape.js';
import { clampDay } from '../schema/days.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';
import { meetsAnySql, meetsSql, NONE, sessionMeetsSql } from '../reads/conditions.js';
import { funnelVisitorsSql } from '../reads/funnels.js';
import { builtPairsSql } from '../reads/queries.js';
import { type BuiltDay, builtDaysSql, markerRowsSql, verSql } from './day-counts.js';
import { stepValue } from './funnel-visitors.js';
import { goalKey } from './goal-visitors.js';
import { COUNTED_BY_KEYS, SESSION_KEYS, withValuesSql } from './value-pages.js';

/** What a row of `value_goals` counts. */
export type ValueKind = 'goal' | 'funnel';

/** The `sessions` columns `VALUE_PAIRS` reads (`SESSION_KEYS` reads `paths` and `names` too). */
const ATTRIBUTES = 'referrer_source, channel, country_code, device_type, browser, os';

/** `ARRAY JOIN` list of the keys of the goals a row meets (`meets`: SQL of each goal on the row). */
const metKeys = (goals: readonly GoalDefinition[], meets: (g: GoalDefinition) => string) =>
  `arrayFilter((key, met) -> met = 1, [${goals.map((g) => sqlString(goalKey(g))).join(', ')}], [${goals.map(meets).join(', ')}])`;

/** Each definition once: two goals may share one, and their rows would be counted twice. */
const distinct = (goals: readonly GoalDefinition[]) => [...new Map(goals.map((g) => [goalKey(g), g])).values()];

const into = (t: SchemaTarget) =>
  `INSERT INTO ${tableName(t, 'value_goals')} (site_id, dimension, value, kind, key, day, ver, conversions, visitors)`;

/** The statement writing the marker of every key of `kind` on every day of `part`. */
const markersSql = (t: SchemaTarget, siteId: string, kind: ValueKind, part: readonly BuiltDay[], keys: readonly string[]) =>
  `${into(t)} ${markerRowsSql(part, keys, (day, ver, key) => `${sqlString(siteId)}, '', '${COUNTED_BY_KEYS}', '${kind}', ${key}, ${day}, ${ver}, toUInt64(0), toUInt64(0)`)}`;

/**
 * The statements that count `goals` on the settled days `part` (each under its build id):
 * the visitors, the conversions of page goals and of event goals (one statement per kind of
 * goal there is), then the markers of every goal.
 */
export function valueGoalsCountSql(t: SchemaTarget, siteId: string, part: readonly BuiltDay[], asked: readonly GoalDefinition[]): string[] {
  const goals = distinct(asked);
  const s = sqlString(siteId);
  const days = part.map((b) => b.day);
  const row = (conversions: string, visitors: string) =>
    `SELECT ${s}, tupleElement(dv, 1), tupleElement(dv, 2), 'goal', k, day, ${verSql(part, 'day')}, ${conversions}, ${visitors}`;
  const visitors = `${into(t)} ${row('toUInt64(0)', 'countIf(lv > 0)')} FROM (
      SELECT day, visitor_id, k, dv, sum(l) AS lv FROM (
        SELECT day, visitor_id, k, ${ATTRIBUTES}, paths, names, sum(toInt64(sign)) AS l FROM ${tableName(t, 'sessions')}
        ARRAY JOIN ${metKeys(goals, sessionMeetsSql)} AS k
        WHERE site_id = ${s} AND day IN (${days.map(sqlDate).join(', ')}) AND (${goals.map(sessionMeetsSql).join(' OR ')})
        GROUP BY day, visitor_id, k, ${ATTRIBUTES}, paths, names HAVING l != 0
      ) ARRAY JOIN ${SESSION_KEYS} AS dv GROUP BY day, visitor_id, k, dv
    ) GROUP BY day, dv, k HAVING countIf(lv > 0) > 0`;
  const conversions = (['page', 'event'] as const).flatMap((type) => {
    const mine = goals.filter((g) => g.type === type);
    if (mine.length === 0) return [];
    const rows = withValuesSql(t, siteId, days, type === 'event' ? 'custom_events' : 'events', 'day, type, name, path', meetsAnySql(mine), 'sessions');
    return [`${into(t)} ${row('count()', 'toUInt64(0)')} FROM (${rows}) ARRAY JOIN ${metKeys(mine, meetsSql)} AS k GROUP BY day, dv, k`];
  });
  return [visitors, ...conversions, markersSql(t, siteId, 'goal', part, goals.map(goalKey))];
}

/**
 * The statements that count the saved funnel `steps` on the settled days `part` (consecutive,
 * each under its build id; `r` their range): per day, value and step, the visitors reaching it,
 * then the markers of every step.
 */
export function valueFunnelCountSql(t: SchemaTarget, r: DayRange, part: readonly BuiltDay[], steps: readonly GoalDefinition[]): [string, string] {
  const keys = steps.map((_, i) => stepValue(steps, i));
  const pairs = keys.map((key, i) => `(${sqlString(key)}, v${i + 1})`).join(', ');
  return [
    `${into(t)} SELECT ${sqlString(r.siteId)}, tupleElement(dv, 1), tupleElement(dv, 2), 'funnel', tupleElement(sv, 1), day, ${verSql(part, 'day')}, toUInt64(0), tupleElement(sv, 2)
    FROM (${funnelVisitorsSql(t, r, steps, NONE, undefined, 'value')}) ARRAY JOIN [${pairs}] AS sv
    WHERE day IN (${part.map((b) => sqlDate(b.day)).join(', ')}) AND tupleElement(sv, 2) > 0`,
    markersSql(t, r.siteId, 'funnel', part, keys),
  ];
}

/** The (day `d`, key `k`) pairs of `kind` among `built` and `keys` that have been counted: their markers. */
export function countedKeysSql(t: SchemaTarget, siteId: string, kind: ValueKind, built: readonly BuiltDay[], keys: readonly string[]): string {
  return `SELECT DISTINCT toString(day) AS d, key AS k FROM ${tableName(t, 'value_goals')}
    WHERE site_id = ${sqlString(siteId)} AND dimension = '' AND value = '${COUNTED_BY_KEYS}' AND kind = '${kind}' AND ${builtDaysSql(built)}
      AND key IN (${keys.map(sqlString).join(', ')})`;
}

/**
 * The `keys` of `kind` of one value over the counted days `counted`, per key (`k`):
 * conversions (`c`) and daily visitors (`v`). A day counted twice under its build (two reads or
 * processes at once) counts the same rows, so each column of a key's day is its largest row.
 */
export function valueKeysSql(t: SchemaTarget, r: DayRange, kind: ValueKind, dimension: string, value: string, keys: readonly string[], counted: readonly BuiltDay[]): string {
  return `SELECT k, sum(dc) AS c, sum(dv) AS v FROM (
      SELECT key AS k, day, max(conversions) AS dc, max(visitors) AS dv FROM ${tableName(t, 'value_goals')}
      WHERE site_id = ${sqlString(r.siteId)} AND dimension = ${sqlString(dimension)} AND value = ${sqlString(value)}
        AND kind = '${kind}' AND key IN (${keys.map(sqlString).join(', ')})
        AND day >= ${sqlDate(clampDay(r.from))} AND day <= ${sqlDate(clampDay(r.to))} AND ${builtPairsSql({ built: [...counted], raw: [] })}
      GROUP BY key, day
    ) GROUP BY k`;
}
