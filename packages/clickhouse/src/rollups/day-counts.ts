/**
 * Counts of settled days that depend on site settings (goals, saved funnels), kept in
 * `visitor_rollups` under each day's build id (`ver`, rollups.ts) with a dimension of their
 * own (`goal`, `funnel`) and the setting's definition in `value`.
 *
 * Settings change at any time, so a day's build does not count them: the first read that
 * finds a settled day without a count reads that day raw and has it counted in the
 * background. Each counted (day, value) gets a marker row of 0 visitors after its count,
 * so "counted, nobody" differs from "not counted yet", and reads take the largest row of a
 * value's day (two processes counting the same day count the same). The markers are a
 * second statement, run when the counts' is done: an `INSERT ... SELECT` becomes visible
 * block by block, so a marker written in the same statement could be read before the count
 * it stands beside, and a read beside the count would take the day as counted with nobody. A write to the day makes
 * its build, and every count under it, stale at once: the day is read raw until it is built
 * and counted again. A setting deleted and added again with the same definition keeps its
 * counts; a changed definition is another value.
 */
import { sqlDate, sqlInt, sqlString } from '../connection/escape.js';
import { readDay } from '../schema/days.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';

/** A settled day and its build id. */
export interface BuiltDay {
  day: string;
  ver: number;
}

/** A dimension of `visitor_rollups` whose rows count a setting. */
export type CountDimension = 'goal' | 'funnel';

/**
 * The rows of `built` under their build ids: `day IN` first, so the read keeps to the days'
 * index ranges, then the (day, build id) pairs.
 */
export function builtDaysSql(built: readonly BuiltDay[]): string {
  return `day IN (${built.map((b) => sqlDate(b.day)).join(', ')}) AND (day, ver) IN (${built.map((b) => `(${sqlDate(b.day)}, ${sqlInt(b.ver)})`).join(', ')})`;
}

/**
 * Per value (`g`) and day (`d`) among `built`: the counted visitors (`v`); a row per value
 * and day that has been counted (the marker), none for the others.
 */
export function builtCountsSql(t: SchemaTarget, siteId: string, dimension: CountDimension, built: readonly BuiltDay[], values: readonly string[]): string {
  return `SELECT value AS g, toString(day) AS d, max(visitors) AS v FROM ${tableName(t, 'visitor_rollups')}
    WHERE site_id = ${sqlString(siteId)} AND dimension = ${sqlString(dimension)} AND ${builtDaysSql(built)}
      AND value IN (${values.map(sqlString).join(', ')})
    GROUP BY value, day`;
}

/** The build id of the day that `day` (SQL) is among `built`, 0 for another day. */
export function verSql(built: readonly BuiltDay[], day: string): string {
  return `transform(${day}, [${built.map((b) => sqlDate(b.day)).join(', ')}], [${built.map((b) => `toUInt64(${sqlInt(b.ver)})`).join(', ')}], toUInt64(0))`;
}

/**
 * A `SELECT` of one row per day of `built` and value of `values`: `columns` writes the row from
 * the SQL of its day, build id and value.
 */
export function markerRowsSql(built: readonly BuiltDay[], values: readonly string[], columns: (day: string, ver: string, value: string) => string): string {
  // Every (day, build id, value) in one array: 18.16 takes one ARRAY JOIN per query.
  const rows = built.flatMap((b) => values.map((v) => `(${sqlDate(b.day)}, toUInt64(${sqlInt(b.ver)}), ${sqlString(v)})`)).join(', ');
  return `SELECT ${columns('tupleElement(m, 1)', 'tupleElement(m, 2)', 'tupleElement(m, 3)')} FROM system.one ARRAY JOIN [${rows}] AS m`;
}

/** A `SELECT` of `visitor_rollups` rows: the marker (0 visitors) of every value on every day of `built`. */
export function markersSql(siteId: string, dimension: CountDimension, built: readonly BuiltDay[], values: readonly string[]): string {
  return markerRowsSql(built, values, (day, ver, value) => `${sqlString(siteId)}, ${sqlString(dimension)}, ${day}, ${ver}, ${value}, toUInt64(0)`);
}

/**
 * The counts of `built` read by `builtCountsSql`, summed per value over the days counted for
 * every one of `values`; the days lacking a count for some value are `uncounted` (read raw for
 * every value, then counted).
 */
export function sumCounted(built: readonly BuiltDay[], rows: readonly { g: string; d: string; v: string }[], values: readonly string[]) {
  const byDay = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const day = readDay(row.d);
    if (!byDay.has(day)) byDay.set(day, new Map());
    byDay.get(day)!.set(row.g, Number(row.v));
  }
  const totals = new Map<string, number>();
  const uncounted: BuiltDay[] = [];
  for (const b of built) {
    const counts = byDay.get(b.day);
    if (!counts || values.some((v) => !counts.has(v))) uncounted.push(b);
    else for (const [value, n] of counts) totals.set(value, (totals.get(value) ?? 0) + n);
  }
  return { totals, uncounted };
}

/**
 * Counts run in the background, one statement after another per process (statements side
 * by side would hold their rows at once), each day of a `what` (a site and what is counted)
 * at most once at a time. A failed count leaves its days raw until a later read counts them.
 * A part's statements (the counts, then the markers) run in order. `stop` (the store is
 * closing) drops what has not started: a part stopped before its markers stays uncounted,
 * and a later read counts it again.
 */
export function createBackgroundCounts(command: (query: string) => Promise<void>) {
  const counting = new Set<string>();
  let background: Promise<void> = Promise.resolve();
  let stopped = false;
  return {
    /** Counts `days` not being counted already for `what`: `split` cuts them into parts, `sqlOf` writes a part's statements. */
    later(what: string, days: readonly BuiltDay[], split: (fresh: BuiltDay[]) => BuiltDay[][], sqlOf: (part: BuiltDay[]) => readonly string[]): void {
      if (stopped) return;
      const key = (d: BuiltDay) => `${what}\u0000${d.day}\u0000${d.ver}`;
      const fresh = days.filter((d) => !counting.has(key(d)));
      if (fresh.length === 0) return;
      for (const d of fresh) counting.add(key(d));
      for (const part of split(fresh)) {
        background = background
          .then(async () => {
            for (const statement of sqlOf(part)) {
              if (stopped) return;
              await command(statement);
            }
          })
          .catch(() => {})
          .finally(() => {
            for (const d of part) counting.delete(key(d));
          });
      }
    },
    /** Resolves when the counts started so far are done. */
    idle: (): Promise<void> => background,
    /** Runs no statement from now on: `idle` then resolves when the one running ends. */
    stop: (): void => {
      stopped = true;
    },
  };
}
