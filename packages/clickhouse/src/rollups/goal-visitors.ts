/**
 * Goal visitors of settled days, counted once (properties-goals.md section 4: the sum over
 * days d of the distinct visitors of sessions starting on d that convert on the goal).
 *
 * Goals are site settings that change at any time, so a day's build (rollups.ts) does not
 * count them; the first `/goals` read that finds a settled day without a goal's count reads
 * that day raw and counts it in the background, into `visitor_rollups` under the day's
 * current build id (`ver`), with dimension `goal` and the goal's definition as the value
 * (`goalKey`). A goal counted on a day writes a marker row of 0 visitors beside its count,
 * so "counted, nobody converted" differs from "not counted yet", and reads take the largest
 * row of a goal's day (two processes counting the same day count the same). A write to the day makes
 * the build and every count under it stale at once (the day is read raw until it is built
 * again), as for every other visitor count of that build. A goal deleted and added again
 * with the same definition keeps its counts; a changed definition is another key.
 *
 * Days are read raw and counted at most `DAYS_PER_QUERY` (days.ts) at a time: such a query
 * holds a row per day, visitor and goal converted, so its memory grows with the days it reads.
 *
 * Unfiltered `/goals` then reads a few rows per day and goal; under a filter the goals are
 * counted from the matching sessions of the range (properties.ts).
 */
import type { DayRange, GoalDefinition } from '@siteline/core';
import { DAYS_PER_QUERY, readDay } from '../schema/days.js';
import { sqlDate, sqlInt, sqlString } from '../connection/escape.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';
import type { VisitorSources } from '../reads/queries.js';
import { sessionMeetsSql } from '../reads/conditions.js';
import { chunks } from '../write/tsv.js';
import type { WriterIO } from '../write/writer.js';

/** A goal's definition as one string, the `value` of its rows: `event:<name>` or `page:<pattern>`. */
export const goalKey = (goal: GoalDefinition): string => `${goal.type}:${goal.value}`;

/** A settled day and its build id. */
export interface BuiltDay {
  day: string;
  ver: number;
}

/**
 * Per goal key (`g`) and day (`d`) among `built`: the counted visitors (`v`); a row per
 * goal and day that has been counted (the marker), none for the others.
 */
export function builtGoalVisitorsSql(t: SchemaTarget, siteId: string, built: readonly BuiltDay[], goals: readonly GoalDefinition[]): string {
  return `SELECT value AS g, toString(day) AS d, max(visitors) AS v FROM ${tableName(t, 'visitor_rollups')}
    WHERE site_id = ${sqlString(siteId)} AND dimension = 'goal' AND day IN (${built.map((b) => sqlDate(b.day)).join(', ')})
      AND (day, ver) IN (${built.map((b) => `(${sqlDate(b.day)}, ${sqlInt(b.ver)})`).join(', ')})
      AND value IN (${goals.map((g) => sqlString(goalKey(g))).join(', ')})
    GROUP BY value, day`;
}

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
 * build id: one row per goal and day with its visitors, and a marker row of 0 for each.
 */
export function goalBuildSql(t: SchemaTarget, siteId: string, built: readonly BuiltDay[], goals: readonly GoalDefinition[]): string {
  const site = sqlString(siteId);
  const dates = built.map((b) => sqlDate(b.day)).join(', ');
  const ver = (day: string) => `transform(${day}, [${dates}], [${built.map((b) => `toUInt64(${sqlInt(b.ver)})`).join(', ')}], toUInt64(0))`;
  // Every (day, goal) pair in one array: 18.16 takes one ARRAY JOIN per query.
  const pairs = built.flatMap((b) => goals.map((g) => `(${sqlDate(b.day)}, ${sqlString(goalKey(g))})`)).join(', ');
  return `INSERT INTO ${tableName(t, 'visitor_rollups')} (site_id, dimension, day, ver, value, visitors)
    SELECT ${site}, 'goal', day, ${ver('day')}, k, countIf(l > 0) FROM (${convertingSql(t, siteId, built.map((b) => b.day), goals)}) GROUP BY day, k
    UNION ALL
    SELECT ${site}, 'goal', tupleElement(dk, 1), ${ver('tupleElement(dk, 1)')}, tupleElement(dk, 2), toUInt64(0) FROM system.one ARRAY JOIN [${pairs}] AS dk`;
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
  const counting = new Set<string>();
  let background: Promise<void> = Promise.resolve();

  /** One part after the other: parts side by side would hold their rows at once. */
  const raw = async (siteId: string, days: readonly string[], goals: readonly GoalDefinition[]) => {
    const found: { g: string; v: string }[] = [];
    for (const part of chunks(days, DAYS_PER_QUERY)) found.push(...(await io.rows<{ g: string; v: string }>(rawGoalVisitorsSql(target, siteId, part, goals))));
    return found;
  };

  const countLater = (siteId: string, days: readonly BuiltDay[], goals: readonly GoalDefinition[]) => {
    const fresh = days.filter((d) => !counting.has(`${siteId}\u0000${d.day}\u0000${d.ver}`));
    if (fresh.length === 0) return;
    for (const d of fresh) counting.add(`${siteId}\u0000${d.day}\u0000${d.ver}`);
    for (const part of chunks(fresh, DAYS_PER_QUERY)) {
      background = background
        .then(() => options.command(goalBuildSql(target, siteId, part, goals)))
        .catch(() => {}) // the days stay raw until a later read counts them
        .finally(() => {
          for (const d of part) counting.delete(`${siteId}\u0000${d.day}\u0000${d.ver}`);
        });
    }
  };

  return {
    async visitors(r: DayRange, goals: readonly GoalDefinition[]): Promise<number[]> {
      const { built, raw: rawDays } = await options.sources(r);
      const [counted, rawRows] = await Promise.all([
        built.length === 0 ? [] : io.rows<{ g: string; d: string; v: string }>(builtGoalVisitorsSql(target, r.siteId, built, goals)),
        raw(r.siteId, rawDays, goals),
      ]);
      const total = new Map<string, number>();
      const add = (key: string, n: number) => total.set(key, (total.get(key) ?? 0) + n);
      const covered = new Map<string, Map<string, number>>();
      for (const row of counted) {
        const day = readDay(row.d);
        if (!covered.has(day)) covered.set(day, new Map());
        covered.get(day)!.set(row.g, Number(row.v));
      }
      // A settled day lacking a count for some goal is read raw for every goal, and counted later.
      const uncounted = built.filter((b) => goals.some((g) => !covered.get(b.day)?.has(goalKey(g))));
      for (const [day, counts] of covered) if (!uncounted.some((u) => u.day === day)) for (const [key, n] of counts) add(key, n);
      for (const row of rawRows) add(row.g, Number(row.v));
      if (uncounted.length > 0) {
        for (const row of await raw(r.siteId, uncounted.map((u) => u.day), goals)) add(row.g, Number(row.v));
        countLater(r.siteId, uncounted, goals);
      }
      return goals.map((g) => total.get(goalKey(g)) ?? 0);
    },

    /** Resolves when the counts started in the background so far are done. */
    idle: (): Promise<void> => background,
  };
}
