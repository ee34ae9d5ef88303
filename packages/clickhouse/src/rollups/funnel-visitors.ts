/**
 * The step visitors of saved funnels on settled days, counted once (funnels.md section 2:
 * each step's visitors are the sum over days d of the distinct visitors of sessions starting
 * on d that reach it): the counts of day-counts.ts, with dimension `funnel` and a row per
 * step (`stepValue`). Unfiltered `/funnels` of a saved funnel then reads a row per day and
 * step; the days not counted yet are read raw, as ranges (reads/funnels.ts, in parts of
 * `DAYS_PER_QUERY`), and counted in the background in the same parts.
 *
 * Only saved funnels are counted, as the SQLite store computes slices for them only: steps
 * asked ad hoc (`steps=`) are read from a saved funnel's counts when its steps are the same,
 * else raw, so no request can make the store keep rows for definitions nobody saved. A day's count covers its sessions' events on later days too: a
 * write to such an event changes the session, which makes its start day unsettled (writer.ts).
 */
import { type DayRange, type GoalDefinition } from '@siteline/core';
import { sqlDate, sqlString } from '../connection/escape.js';
import { DAYS_PER_QUERY, dayParts, outsideDateType } from '../schema/days.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';
import { NONE } from '../reads/conditions.js';
import { funnelVisitorsSql } from '../reads/funnels.js';
import type { VisitorSources } from '../reads/queries.js';
import type { WriterIO } from '../write/writer.js';
import { type BuiltDay, builtCountsSql, createBackgroundCounts, markersSql, sumCounted, verSql } from './day-counts.js';

/**
 * The `value` of step `i`'s rows (from 0): its number from 1 and the funnel's steps as JSON.
 * @example stepValue([{ type: 'page', value: '/' }, { type: 'event', value: 'signup' }], 1) // '2 [["page","/"],["event","signup"]]'
 */
export const stepValue = (steps: readonly GoalDefinition[], i: number): string => `${i + 1} ${JSON.stringify(steps.map((s) => [s.type, s.value]))}`;

/** Whether two funnels have the same steps, in the same order. */
export const sameSteps = (a: readonly GoalDefinition[], b: readonly GoalDefinition[]): boolean =>
  a.length === b.length && a.every((s, i) => s.type === b[i]!.type && s.value === b[i]!.value);

/**
 * The runs of `days` (ascending, the days with data) whose days are all in `need`: a run
 * ends at a day not needed, not at a day without data (it has no sessions to read).
 * @example runsAmong(['01-01', '01-02', '01-05', '01-06'], new Set(['01-01', '01-05', '01-06'])) // [{ from: '01-01', to: '01-01' }, { from: '01-05', to: '01-06' }]
 */
export function runsAmong(days: readonly string[], need: ReadonlySet<string>): { from: string; to: string }[] {
  const runs: { from: string; to: string }[] = [];
  let open = false;
  for (const day of days) {
    if (!need.has(day)) open = false;
    else if (open) runs[runs.length - 1]!.to = day;
    else {
      runs.push({ from: day, to: day });
      open = true;
    }
  }
  return runs;
}

/**
 * Counts the funnel `steps` on the settled days `built`, all in `part` (at most
 * `DAYS_PER_QUERY` days), into `visitor_rollups` under each day's build id: a row per
 * day and step reached by someone, then (a second statement) a marker row of 0 per day and step.
 */
export function funnelCountSql(t: SchemaTarget, part: DayRange, built: readonly BuiltDay[], steps: readonly GoalDefinition[]): [string, string] {
  const pairs = steps.map((_, i) => `(${sqlString(stepValue(steps, i))}, v${i + 1})`).join(', ');
  const into = `INSERT INTO ${tableName(t, 'visitor_rollups')} (site_id, dimension, day, ver, value, visitors)`;
  return [
    `${into} SELECT ${sqlString(part.siteId)}, 'funnel', day, ${verSql(built, 'day')}, tupleElement(sv, 1), tupleElement(sv, 2)
    FROM (${funnelVisitorsSql(t, part, steps, NONE, undefined, 'day')}) ARRAY JOIN [${pairs}] AS sv
    WHERE day IN (${built.map((b) => sqlDate(b.day)).join(', ')})`,
    `${into} ${markersSql(part.siteId, 'funnel', built, steps.map((_, i) => stepValue(steps, i)))}`,
  ];
}

export interface FunnelVisitorOptions {
  /** Where each day's visitor counts come from (rollups.ts `sources`). */
  sources: (range: DayRange) => Promise<VisitorSources>;
  /** The steps of the site's saved funnels. */
  savedSteps: (siteId: string) => Promise<readonly (readonly GoalDefinition[])[]>;
  /** The unfiltered step visitors of a range read raw (reads/funnels.ts). */
  raw: (range: DayRange, steps: readonly GoalDefinition[]) => Promise<number[]>;
  /** Runs an `INSERT ... SELECT` (with the insert settings). */
  command: (query: string) => Promise<void>;
}

/** The unfiltered step visitors of a range: saved funnels from the daily counts where they are, the rest raw. */
export function createFunnelVisitors(io: Pick<WriterIO, 'rows'>, target: SchemaTarget, options: FunnelVisitorOptions) {
  const counts = createBackgroundCounts(options.command);

  /**
   * Counts `uncounted` (settled days of `r`) in the background, in parts of consecutive days
   * among `days` (the range's days with data, ascending) of at most `DAYS_PER_QUERY` days.
   */
  const later = (r: DayRange, days: readonly string[], uncounted: readonly BuiltDay[], steps: readonly GoalDefinition[]) => {
    if (uncounted.length === 0) return;
    const split = (fresh: BuiltDay[]) => {
      return runsAmong(days, new Set(fresh.map((d) => d.day)))
        .flatMap((run) => dayParts(run.from, run.to, DAYS_PER_QUERY))
        .map((part) => fresh.filter((d) => d.day >= part.from && d.day <= part.to))
        .filter((part) => part.length > 0);
    };
    counts.later(`${r.siteId}\u0000${stepValue(steps, 0)}`, uncounted, split, (part) => funnelCountSql(target, { ...r, from: part[0]!.day, to: part[part.length - 1]!.day }, part, steps));
  };

  return {
    async visitors(r: DayRange, steps: readonly GoalDefinition[]): Promise<number[]> {
      if (outsideDateType(r)) return steps.map(() => 0);
      const [saved, { built, raw }] = await Promise.all([options.savedSteps(r.siteId), options.sources(r)]);
      if (!saved.some((s) => sameSteps(s, steps))) return options.raw(r, steps);
      const values = steps.map((_, i) => stepValue(steps, i));
      const counted = built.length === 0 ? [] : await io.rows<{ g: string; d: string; v: string }>(builtCountsSql(target, r.siteId, 'funnel', built, values));
      const { totals, uncounted } = sumCounted(built, counted, values);
      const out = values.map((v) => totals.get(v) ?? 0);
      const days = [...built.map((b) => b.day), ...raw].sort();
      // The days without counts as ranges: one after the other (each holds its sessions' step events).
      for (const run of runsAmong(days, new Set([...raw, ...uncounted.map((u) => u.day)]))) {
        (await options.raw({ ...r, ...run }, steps)).forEach((n, i) => (out[i]! += n));
      }
      later(r, days, uncounted, steps);
      return out;
    },

    /** Counts the saved funnel `steps` in the background on the settled days among `built` that lack its counts (after an import). */
    async countSettled(r: DayRange, built: readonly BuiltDay[], steps: readonly GoalDefinition[]): Promise<void> {
      if (built.length === 0 || outsideDateType(r)) return;
      const values = steps.map((_, i) => stepValue(steps, i));
      const counted = await io.rows<{ g: string; d: string; v: string }>(builtCountsSql(target, r.siteId, 'funnel', built, values));
      later(r, built.map((b) => b.day).sort(), sumCounted(built, counted, values).uncounted, steps);
    },

    /** Resolves when the counts started in the background so far are done. */
    idle: counts.idle,

    /** Starts no more counts (the store is closing). */
    stop: counts.stop,
  };
}
