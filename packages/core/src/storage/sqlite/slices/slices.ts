/**
 * Slices for the SQLite store: computing a day's (its chunk read at once on the store's
 * connection, sqlite-chunk-reader.ts and -builder.ts, then compute.ts, written with the
 * versions it was read at), and cutting a read's range into the days whose slices are
 * valid (summed by reads.ts) and the days that must be read as before (no slices yet, a
 * write since, too many groups, a goal or a saved funnel not computed), skipping days without
 * any data.
 */
import type Database from 'better-sqlite3';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { daysBetween, localDay, shiftDay } from '../../../time/zone.js';
import { createChunkBuilder } from '../sqlite-chunk-builder.js';
import { createChunkReader } from '../sqlite-chunk-reader.js';
import { ATTRIBUTES, type DayChunk, Dictionary, runSteps, type SiteDictionaries } from '../sqlite-columns.js';
import type { DayVersions } from '../sqlite-day-versions.js';
import { computeSlices, computeSteps, MAX_GROUPS, type SliceRows } from './compute.js';
import { funnelKey, settingKeys, type SlicePlan, type SliceSettings } from './kinds.js';
import { createSliceReads, type Days } from './reads.js';
import { createSliceStore } from './store.js';

/** Hours after midnight during which the day before still takes writes (sessions run on), as the rollups' hot days. */
const HOT_WINDOW_MS = 6 * 3_600_000;

export interface SlicesOptions {
  now: () => number;
  timezoneOf: (siteId: string) => string | undefined;
  /** The site's goals and saved funnels, which a day is computed for. */
  settingsOf: (siteId: string) => SliceSettings;
  /** Groups a day may make (compute.ts `MAX_GROUPS`; tests make it small). */
  maxGroups?: number;
  /** Sessions a day needs for slices (default `MIN_SESSIONS`; tests: 0). */
  minSessions?: number;
}

/**
 * Days of fewer sessions get no slices: the column cache holds a year of such days within its
 * default bound (about 0.6 MB a day) and scans one in about a millisecond, while their slices
 * would hold more rows than their raw rows (a slice row per value of every breakdown).
 */
export const MIN_SESSIONS = 4_000;

/** Fresh dictionaries for one day's computation (the rows store text, not codes). */
function dictionaries(): SiteDictionaries {
  const paths = new Dictionary();
  return { paths, names: new Dictionary(), propKeys: new Dictionary(), propValues: new Dictionary(), attributes: ATTRIBUTES.map((a) => (a === 'entryPath' ? paths : new Dictionary())) };
}

export function createSlices(db: Database.Database, versions: DayVersions, options: SlicesOptions) {
  const store = createSliceStore(db, versions);
  const minSessions = options.minSessions ?? MIN_SESSIONS;
  const reads = createSliceReads(db);
  const readDay = createChunkReader(db);
  // Days that hold any data: written since versions were kept, or rolled up, or waiting for it.
  const withData = db.prepare<[string, string, string, string, string, string, string, string, string, string, string, string, string, string, string], string>(
    `SELECT day FROM day_versions WHERE site_id = ? AND day BETWEEN ? AND ?
     UNION SELECT day FROM rollup_days WHERE site_id = ? AND day BETWEEN ? AND ?
     UNION SELECT DISTINCT day FROM rollup_events WHERE site_id = ? AND day BETWEEN ? AND ?
     UNION SELECT day FROM dirty_days WHERE site_id = ? AND day BETWEEN ? AND ?
     UNION SELECT day FROM live_days WHERE site_id = ? AND day BETWEEN ? AND ?`,
  ).pluck();

  const hot = (siteId: string, day: string): boolean => {
    const zone = options.timezoneOf(siteId) ?? 'UTC';
    const now = options.now();
    return day === localDay(now, zone) || day === localDay(now - HOT_WINDOW_MS, zone);
  };

  /** One day's slices, read and written in one write transaction (its rows and their versions one snapshot). */
  const computeDay = db.transaction((siteId: string, day: string, timezone: string, settings: SliceSettings) => {
    const dicts = dictionaries();
    const builder = createChunkBuilder(day, dicts);
    runSteps(readDay(siteId, day, timezone, builder.sink));
    const chunk = runSteps(builder.finish());
    const depends = [day, ...chunk.dependsOn];
    const now = versions.between(siteId, depends.reduce((a, b) => (a < b ? a : b)), depends.reduce((a, b) => (a > b ? a : b)));
    const rows = chunk.own < minSessions ? undefined : computeSlices(chunk, dicts, settings, options.maxGroups ?? MAX_GROUPS);
    store.write(siteId, day, rows, depends.map((d) => [d, now.get(d) ?? 0]), settingKeys(settings));
  });

  /** Writes a day's rows computed from a chunk of `dayVersions` if those versions still hold (else a later read computes it again). */
  const writeIfCurrent = db.transaction((siteId: string, day: string, rows: SliceRows | undefined, dayVersions: [string, number][], goals: string[]) => {
    const days = dayVersions.map(([d]) => d).sort();
    const now = versions.between(siteId, days[0]!, days[days.length - 1]!);
    if (dayVersions.every(([d, v]) => (now.get(d) ?? 0) === v)) store.write(siteId, day, rows, dayVersions, goals);
  });

  return {
    reads,
    store,

    /**
     * Computes a day's slices from a chunk the column cache holds (`ColumnCache.held`) a few
     * milliseconds per turn of the event loop, then writes them in one transaction if the chunk's
     * versions still hold: how a server computes the days its reads found without slices.
     */
    async computeHeld(siteId: string, day: string, held: { chunk: DayChunk; dicts: SiteDictionaries; versions: [string, number][] }, stopped: () => boolean): Promise<void> {
      if (hot(siteId, day)) return;
      const settings = options.settingsOf(siteId);
      if (held.chunk.own < minSessions) {
        writeIfCurrent.immediate(siteId, day, undefined, held.versions, settingKeys(settings));
        return;
      }
      const steps = computeSteps(held.chunk, held.dicts, settings, options.maxGroups ?? MAX_GROUPS);
      for (let step = steps.next(); ; step = steps.next()) {
        if (step.done) {
          if (!stopped()) writeIfCurrent.immediate(siteId, day, step.value, held.versions, settingKeys(settings));
          return;
        }
        await nextTurn();
        if (stopped()) return;
      }
    },

    /**
     * Computes the slices of the listed days of a site that are not hot, each in a transaction of
     * its own, then those of the week after them that depend on them (a session running past
     * midnight makes the next day's rows depend on its start day's): what a write made stale.
     * A later day depending on them (a session of more than a week) is computed after a read finds it.
     */
    compute(siteId: string, days: Iterable<string>): void {
      const timezone = options.timezoneOf(siteId);
      if (timezone === undefined) return;
      const settings = options.settingsOf(siteId);
      const list = [...days].sort();
      if (list.length === 0) return;
      for (const day of list) if (!hot(siteId, day)) computeDay.immediate(siteId, day, timezone, settings);
      const after = shiftDay(list[list.length - 1]!, 7);
      const valid = store.valid(siteId, list[0]!, after);
      for (const day of store.computed(siteId, list[0]!, after)) {
        if (!valid.has(day) && !hot(siteId, day)) computeDay.immediate(siteId, day, timezone, settings);
      }
    },

    /**
     * The range cut for a read of `plan` (call inside the read's transaction): the days whose
     * slices are valid (and hold the goals and funnels the read needs, by their keys), and the days with data that are not
     * (`rest`), of which `stale` are those to compute (not known to get none at their versions).
     * Days without data are in neither.
     */
    split(siteId: string, from: string, to: string, plan: SlicePlan, goals: readonly string[] = []): { days: Days; rest: string[]; stale: string[] } {
      const valid = store.valid(siteId, from, to);
      const needs = plan.goal ? [plan.goal, ...goals] : goals;
      const data = new Set(withData.all(siteId, from, to, siteId, from, to, siteId, from, to, siteId, from, to, siteId, from, to));
      const days: string[] = [];
      const rest: string[] = [];
      const stale: string[] = [];
      for (const day of daysBetween(from, to)) {
        const computed = valid.get(day);
        if (computed && needs.every((g) => computed.has(g))) days.push(day);
        else if (data.has(day)) {
          rest.push(day);
          if (computed !== null) stale.push(day);
        }
      }
      return { days, rest, stale };
    },

    /** Whether a day may be computed now (not hot). */
    computable: (siteId: string, day: string): boolean => !hot(siteId, day),

    /** Whether slices are computed for a funnel of these steps (`funnelKey`): one of the site's saved funnels. */
    computesFunnel: (siteId: string, key: string): boolean => options.settingsOf(siteId).funnels.some((steps) => funnelKey(steps) === key),
  };
}

export type Slices = ReturnType<typeof createSlices>;
