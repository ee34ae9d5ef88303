/**
 * The property and goal reads (properties-goals.md) of the ClickHouse store. A custom
 * event's properties are two parallel arrays on its own row (`prop_keys`, `prop_values`,
 * migration 4), read from `custom_events` (migration 9), so a property is read, grouped and
 * filtered on the row itself; sessions are matched as the filtered reads match them
 * (selection.ts). Goals without a filter come from the rollups (conversions) and the goals'
 * daily visitor counts (goal-visitors.ts); under a filter, from the range's raw rows. SQL
 * only, values through escape.ts, runs on 18.16 and 26.x.
 */
import type { DayRange, GoalDefinition, GoalTotals, PropertyTotals, Selection } from '@siteline/core';
import { hasConditions } from '@siteline/core';
import { clampDay, outsideDateType } from '../schema/days.js';
import { sqlDate, sqlString } from '../connection/escape.js';
import type { createGoalVisitors } from '../rollups/goal-visitors.js';
import type { createPropertyCounts } from '../rollups/property-counts.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';
import { meetsAnySql, meetsSql, NONE, pathMatchesSql, sessionMeetsSql } from './conditions.js';
import { type Bounds, eventTable, matchingRowsWhere, selectedEventsWhere, sessionSetSql } from './matching.js';
import type { createSelectionReads } from './selection.js';
import { oneKey } from '../rollups/one-value.js';

const inDays = (r: DayRange, from: string, to: string) =>
  `site_id = ${sqlString(r.siteId)} AND day >= ${sqlDate(clampDay(from))} AND day <= ${sqlDate(clampDay(to))}`;

/**
 * The custom events named `name` among the `custom_events` rows of `where`, by property key
 * (`k`, through `ARRAY JOIN` of the two arrays) or by the value of `property`: events (`n`)
 * and daily distinct visitors (`v`).
 */
function propertyRowsSql(t: SchemaTarget, where: string, name: string, property: string | undefined): string {
  const all = `${where} AND name = ${sqlString(name)}`;
  if (property === undefined) {
    return `SELECT prop_key AS k, count() AS n, uniqExact(day, visitor_id) AS v FROM ${eventTable(t, 'event')}
      ARRAY JOIN prop_keys AS prop_key WHERE ${all} GROUP BY k`;
  }
  const key = sqlString(property);
  return `SELECT prop_values[indexOf(prop_keys, ${key})] AS k, count() AS n, uniqExact(day, visitor_id) AS v FROM ${eventTable(t, 'event')}
    WHERE ${all} AND has(prop_keys, ${key}) GROUP BY k`;
}

/**
 * The selected custom events named `name` with their own day in the range, by property
 * key or by the value of `property` (`propertyRowsSql`). Without a selection every custom
 * event of the name is selected.
 */
export function propertiesSql(t: SchemaTarget, r: DayRange, b: Bounds | undefined, name: string, property: string | undefined, selection?: Selection): string {
  return propertyRowsSql(t, b && selection ? selectedEventsWhere(t, r, b, selection, 'event') : `${inDays(r, r.from, r.to)} AND type = 'event'`, name, property);
}

/** Every custom event named `name` on the listed days, by property key or by the value of `property` (`propertyRowsSql`). */
export function propertiesOfDaysSql(t: SchemaTarget, siteId: string, days: readonly string[], name: string, property: string | undefined): string {
  return propertyRowsSql(t, `site_id = ${sqlString(siteId)} AND day IN (${days.map(sqlDate).join(', ')}) AND type = 'event'`, name, property);
}

/**
 * Conversions of each goal (`c<i>`, i: the goal's place in `goals`, from 1) under a
 * selection: the events of the range meeting it, in matching sessions (those starting in
 * `[lo, to]`). Event goals count `custom_events` rows, page goals pageviews of `events`:
 * one query per kind of goal there is.
 */
export function conversionsSql(t: SchemaTarget, r: DayRange, b: Bounds, goals: readonly GoalDefinition[], selection: Selection): string[] {
  const matching = `session_id IN (${sessionSetSql(t, r, b.lo, b.hi, selection)})`;
  return (['event', 'page'] as const).flatMap((type) => {
    const mine = goals.flatMap((g, i) => (g.type === type ? [{ g, i }] : []));
    if (mine.length === 0) return [];
    const counts = mine.map(({ g, i }) => `countIf(${meetsSql(g)}) AS c${i + 1}`).join(', ');
    const table = eventTable(t, type === 'event' ? 'event' : 'pageview');
    return [`SELECT ${counts} FROM ${table} WHERE ${inDays(r, r.from, r.to)} AND ${meetsAnySql(mine.map(({ g }) => g))} AND ${matching}`];
  });
}

/**
 * Conversions of each goal without a selection, from the rollups of the range: every
 * event meeting a goal converts its session, so they are the custom events of the goal's
 * name (`event_totals`) and the pageviews of the paths matching its pattern
 * (`page_totals`; a row per day and path). One query per kind of goal there is; each
 * gives `c<i>` for its goals (i: the goal's place in `goals`, from 1).
 */
export function rolledConversionsSql(t: SchemaTarget, r: DayRange, goals: readonly GoalDefinition[]): string[] {
  const sums = (type: GoalDefinition['type'], sum: (g: GoalDefinition) => string) =>
    goals.flatMap((g, i) => (g.type === type ? [`${sum(g)} AS c${i + 1}`] : [])).join(', ');
  const events = sums('event', (g) => `sumIf(custom_events, name = ${sqlString(g.value)})`);
  const pages = sums('page', (g) => `sumIf(pageviews, ${pathMatchesSql(g)})`);
  const names = goals.filter((g) => g.type === 'event').map((g) => sqlString(g.value));
  return [
    ...(events ? [`SELECT ${events} FROM ${tableName(t, 'event_totals')} WHERE ${inDays(r, r.from, r.to)} AND name IN (${names.join(', ')})`] : []),
    ...(pages ? [`SELECT ${pages} FROM ${tableName(t, 'page_totals')} WHERE ${inDays(r, r.from, r.to)}`] : []),
  ];
}

/**
 * Visitors of each goal (`v1` .. `vN`): matching sessions starting in the range that
 * convert on it, daily distinct visitors summed. Per day and visitor, the signs of the
 * rows of sessions whose `paths` or `names` meet goal i (every event of the session,
 * whatever its day) are summed (`l1` .. `lN`): a visitor of a day counts when one of their
 * current sessions converts, as every visitor count of selection.ts. No set of session
 * ids (until schema version 6: one `IN` set per goal from the events of `[from, hi]`).
 */
export function goalVisitorsSql(t: SchemaTarget, r: DayRange, b: Bounds, goals: readonly GoalDefinition[], selection: Selection = NONE): string {
  // Only rows of sessions converting on some goal: any other row adds 0 to every l.
  const converting = goals.map(sessionMeetsSql);
  return `SELECT ${goals.map((_, i) => `countIf(l${i + 1} > 0) AS v${i + 1}`).join(', ')} FROM (
      SELECT ${converting.map((c, i) => `sumIf(toInt64(sign), ${c}) AS l${i + 1}`).join(', ')}
      FROM ${tableName(t, 'sessions')} WHERE ${matchingRowsWhere(t, r, r.from, b.hi, selection)} AND (${converting.join(' OR ')})
      GROUP BY day, visitor_id
    )`;
}

const num = (value: unknown): number => Number(value);

type GoalVisitors = ReturnType<typeof createGoalVisitors>;
type PropertyCounts = ReturnType<typeof createPropertyCounts>;

type Selected = Pick<ReturnType<typeof createSelectionReads>, 'bounds' | 'rows'>;

const conversionsOf = async (rows: Selected['rows'], sqls: string[]) =>
  Object.assign({}, ...(await Promise.all(sqls.map((sql) => rows<Record<string, string>>(sql)))).map(([row]) => row)) as Record<string, string>;

/** `goalTotals` under a selection from the range's raw rows: its matching sessions and their events. */
export async function selectedGoalTotals(target: SchemaTarget, selected: Selected, r: DayRange, goals: readonly GoalDefinition[], s: Selection): Promise<GoalTotals[]> {
  if (goals.length === 0) return [];
  if (outsideDateType(r)) return goals.map(() => ({ visitors: 0, conversions: 0 }));
  // Conversions match whole sessions (any start from `lo`), so the range's bounds are read.
  const b = await selected.bounds(r, s, true);
  const [[visitors], conversions] = await Promise.all([
    selected.rows<Record<string, string>>(goalVisitorsSql(target, r, b, goals, s)),
    conversionsOf(selected.rows, conversionsSql(target, r, b, goals, s)),
  ]);
  return goals.map((_, i) => ({ visitors: num(visitors?.[`v${i + 1}`] ?? 0), conversions: num(conversions[`c${i + 1}`] ?? 0) }));
}

/**
 * The store's `properties` and `goalTotals` over the filtered reads' bounds and query function;
 * without a filter, properties come from their daily counts (property-counts.ts), goal
 * visitors from theirs (goal-visitors.ts) and conversions from the rollups; under one session
 * value, page or event name, goals from its daily counts (`oneValueGoals`, rollups/one-value.ts `oneKey`).
 */
export function createPropertyReads(
  target: SchemaTarget,
  selected: Selected,
  counted: Pick<GoalVisitors, 'visitors'>,
  propertyCounts: Pick<PropertyCounts, 'properties'>,
  oneValueGoals: (r: DayRange, goals: readonly GoalDefinition[], selection: Selection) => Promise<GoalTotals[]>,
) {
  const { rows, bounds } = selected;
  const filtering = (selection: Selection | undefined) => (selection && hasConditions(selection) ? selection : undefined);
  return {
    async properties(r: DayRange, name: string, property: string | undefined, selection?: Selection): Promise<PropertyTotals[]> {
      if (outsideDateType(r)) return [];
      const s = filtering(selection);
      if (!s) return propertyCounts.properties(r, name, property);
      const found = await rows<{ k: string; n: string; v: string }>(propertiesSql(target, r, await bounds(r, s), name, property, s));
      return found.map((x) => ({ key: x.k, count: num(x.n), visitors: num(x.v) }));
    },

    async goalTotals(r: DayRange, goals: readonly GoalDefinition[], selection?: Selection): Promise<GoalTotals[]> {
      if (goals.length === 0) return [];
      if (outsideDateType(r)) return goals.map(() => ({ visitors: 0, conversions: 0 }));
      const s = filtering(selection);
      if (!s) {
        const [visitors, conversions] = await Promise.all([counted.visitors(r, goals), conversionsOf(rows, rolledConversionsSql(target, r, goals))]);
        return goals.map((_, i) => ({ visitors: visitors[i]!, conversions: num(conversions[`c${i + 1}`] ?? 0) }));
      }
      return oneKey(s) ? oneValueGoals(r, goals, s) : selectedGoalTotals(target, selected, r, goals, s);
    },
  };
}
