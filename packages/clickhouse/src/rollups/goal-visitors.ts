/**
 * Goal visitors of settled days, counted once (properties-goals.md section 4: the sum over
 * days d of the distinct visitors of sessions starting on d that convert on the goal): the
 * counts of day-counts.ts, with dimension `goal` and the goal's definition as the value
 * (`goalKey`). The first `/goals` read that finds a settled day without a goal's count reads
 * that day raw and counts it in the background.
 *
 * Days are read raw and counted at most `DAYS_PER_QUERY` (days.ts) at a time: such a query
 * holds a row per day, visitor and goal converted, so its memory grows with the days it reads.
 *
 * Unfiltered `/goals` then reads a few rows per day and goal; under a filter the goals are
 * counted from the matching sessions of the range (properties.ts).
 */
import type { DayRange, GoalDefinition } from '@siteline/core';
import { DAYS_PER_QUERY } from '../schema/days.js';
import { sqlDate, sqlString } from '../connection/escape.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';
import type { VisitorSources } from '../reads/queries.js';
import { sessionMeetsSql } from '../reads/conditions.js';
import { chunks } from '../connection/parts.js';
import type { WriterIO } from '../write/writer.js';
import { type BuiltDay, builtCountsSql, createBackgroundCounts, markersSql, sumCounted, verSql } from './day-counts.js';

/** A goal's definition as one string, the `value` of its rows: `event:<name>` or `page:<pattern>`. */
export const goalKey = (goal: GoalDefinition): string => `${goal.type}:${goal.value}`;

/**
 * Sessions starting on the listed days, per day and visitor and per goal they convert on
 * (`k`, the goal's key): the signs of their rows summed (`l`); a visitor counts on a day
 * for a goal when one of their sessions there is current (`l > 0`). Only the rows of
 * sessions converting on some goal are read.
 */
function convertingSql(t: SchemaTarget, siteId: string, days: readonly string[], goals: readonly GoalDefinition[]): string {
  const meets = goals.map(sessionMeetsSql);
  return `SELECT day, visitor_id, k, sum(sign) AS l FROM ${tableName(t, 'sessions')}
    ARRAY JOIN arrayFilter((key, meets) -> meets = 1, [${goals.map((g) => sqlString(goalKey(g))).join(', ')}], [${meets.join(', ')}]) AS k
    WHERE site_id = ${sqlString(siteId)} AND day IN (${days.map(sqlDate).join(', ')}) AND (${meets.join(' OR ')})
    GROUP BY day, visitor_id, k`;
}

/** Goal visitors of the listed days read raw: per goal key (`g`), summed over the days (`v`). */
export function rawGoalVisitorsSql(t: SchemaTarget, siteId: string, days: readonly string[], goals: readonly GoalDefinition[]): string {
  return `SELECT k AS g, countIf(l > 0) AS v FROM (${convertingSql(t, siteId, days, goals)}) GROUP BY k`;
}

/**
 * Counts `goals` on the settled days `built` into `visitor_rollups` under each day's
 * build id: one row per goal and day with its visitors, then (a second statement) a marker
 * row of 0 for each.
 */
export function goalBuildSql(t: SchemaTarget, siteId: string, built: readonly BuiltDay[], goals: readonly GoalDefinition[]): [string, string] {
  const into = `INSERT INTO ${tableName(t, 'visitor_rollups')} (site_id, dimension, day, ver, value, visitors)`;
  return [
    `${into} SELECT ${sqlString(siteId)}, 'goal', day, ${verSql(built, 'day')}, k, countIf(l > 0) FROM (${convertingSql(t, siteId, built.map((b) => b.day), goals)}) GROUP BY day, k`,
    `${into} ${markersSql(siteId, 'goal', built, goals.map(goalKey))}`,
  ];
}

export interface GoalVisitorOptions {
  /** Where each day's visitor counts come from (rollups.ts `sources`). */
  sources: (range: DayRange) => Promise<VisitorSources>;
  /** Runs an `INSERT ... SELECT` (with the insert settings). */
  command: (query: string) => Promise<void>;
}

/**
 * The goal visitors of a range without a filter, by goal (in the order of `goals`): settled
 * days from their counts, the others and settled days not counted yet for some goal raw;
 * those days are then counted in the background, one count at a time per process.
 */
export function createGoalVisitors(io: Pick<WriterIO, 'rows'>, target: SchemaTarget, options: GoalVisitorOptions) {
  const counts = createBackgroundCounts(options.command);

  /** One part after the other: parts side by side would hold their rows at once. */
  const raw = async (siteId: string, days: readonly string[], goals: readonly GoalDefinition[]) => {
    const found: { g: string; v: string }[] = [];
    for (const part of chunks(days, DAYS_PER_QUERY)) found.push(...(await io.rows<{ g: string; v: string }>(rawGoalVisitorsSql(target, siteId, part, goals))));
    return found;
  };

  const later = (siteId: string, uncounted: readonly BuiltDay[], goals: readonly GoalDefinition[]) =>
    counts.later(siteId, uncounted, (fresh) => chunks(fresh, DAYS_PER_QUERY), (part) => goalBuildSql(target, siteId, part, goals));

  return {
    async visitors(r: DayRange, goals: readonly GoalDefinition[]): Promise<number[]> {
      const keys = goals.map(goalKey);
      const { built, raw: rawDays } = await options.sources(r);
      const [counted, rawRows] = await Promise.all([
        built.length === 0 ? [] : io.rows<{ g: string; d: string; v: string }>(builtCountsSql(target, r.siteId, 'goal', built, keys)),
        raw(r.siteId, rawDays, goals),
      ]);
      // A settled day lacking a count for some goal is read raw for every goal, and counted later.
      const { totals, uncounted } = sumCounted(built, counted, keys);
      const add = (key: string, n: number) => totals.set(key, (totals.get(key) ?? 0) + n);
      for (const row of rawRows) add(row.g, Number(row.v));
      if (uncounted.length > 0) {
        for (const row of await raw(r.siteId, uncounted.map((u) => u.day), goals)) add(row.g, Number(row.v));
        later(r.siteId, uncounted, goals);
      }
      return keys.map((key) => totals.get(key) ?? 0);
    },

    /** Counts `goals` in the background on the settled days among `built` that lack a count for some goal (after an import). */
    async countSettled(siteId: string, built: readonly BuiltDay[], goals: readonly GoalDefinition[]): Promise<void> {
      if (built.length === 0 || goals.length === 0) return;
      const keys = goals.map(goalKey);
      const counted = await io.rows<{ g: string; d: string; v: string }>(builtCountsSql(target, siteId, 'goal', built, keys));
      later(siteId, sumCounted(built, counted, keys).uncounted, goals);
    },

    /** Resolves when the counts started in the background so far are done. */
    idle: counts.idle,

    /** Starts no more counts (the store is closing). */
    stop: counts.stop,
  };
}
