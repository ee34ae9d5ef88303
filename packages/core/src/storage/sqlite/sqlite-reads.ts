import type Database from 'better-sqlite3';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { dayStart, localDay, runsOf, shiftDay } from '../../time/zone.js';
import type { GoalDefinition } from '../../goals/goal.js';
import { hasConditions } from '../selection.js';
import type { BreakdownTotals, DayRange, EventTotals, PageTotals, PropertyTotals, Selection, SessionDimension, SummaryTotals } from '../types.js';
import { type ColumnCache, createColumnCache } from './sqlite-column-cache.js';
import type { DayVersions } from './sqlite-day-versions.js';
import { writeUnavailable } from './sqlite-errors.js';
import { createColumnReads } from './sqlite-scan.js';
import { type Aggregates, createQueries, createRollupQueries } from './sqlite-queries.js';
import { resultBytes, type Scanned, sumBuckets, sumBy, sumGoals, sumSteps } from './sqlite-merge.js';
import { createRawSelectionReads } from './sqlite-selection-raw.js';
import type { Rollups } from './sqlite-rollups.js';
import { funnelKey, goalKey, pairPlan, slicePlan } from './slices/kinds.js';
import type { Days, SliceRead } from './slices/reads.js';
import type { Slices } from './slices/slices.js';

/**
 * Days still receiving writes: the site's current local day and, for the first
 * six hours after midnight, the previous one (sessions running across midnight
 * extend it). A hot day is rebuilt as a live day (kept current by each small
 * write), any other as clean, which a late event makes dirty again (a full
 * rebuild of that day on the next read); the window keeps that rare.
 */
const HOT_WINDOW_MS = 6 * 3_600_000;

/** Every day, for listing a site's live days. */
const ALL = { from: '0000-00-00', to: '9999-99-99' };

/** Range sums over clean days kept per store, and their memory (estimated): a day of unique URLs makes `/pages` as long as its rows. */
const MAX_CACHED = 256;
const MAX_CACHED_BYTES = 16 * 1024 * 1024;

export interface ReadsOptions {
  /** The clock that decides which days are hot. */
  now: () => number;
  /** A read-only store never rebuilds: it reads dirty days raw. */
  readonly: boolean;
  /** The site's time zone, or undefined for an unknown site. */
  timezoneOf: (siteId: string) => string | undefined;
  /** Bound of the column cache of filtered reads, in bytes (default `DEFAULT_COLUMN_CACHE_BYTES`). */
  columnCacheBytes?: number;
  /** The versions of each day's raw rows, which the column cache checks its chunks against. */
  versions: DayVersions;
  /** Per-day sums of one-condition selections (slices/): filtered reads sum them over the days they are valid for. */
  slices?: Slices;
}

type Source = 'clean' | 'live' | 'dirty';

/** `[from, to]` cut into runs of consecutive days by source: dirty and live days as listed, the rest clean. */
function segments(from: string, to: string, dirty: readonly string[], live: readonly string[]): { source: Source; from: string; to: string }[] {
  const special = [...dirty.map((day) => ({ day, source: 'dirty' as const })), ...live.map((day) => ({ day, source: 'live' as const }))]
    .sort((a, b) => (a.day < b.day ? -1 : 1));
  const out: { source: Source; from: string; to: string }[] = [];
  let cursor = from;
  for (const { day, source } of special) {
    const last = out[out.length - 1];
    if (cursor < day) out.push({ source: 'clean', from: cursor, to: shiftDay(day, -1) });
    else if (last?.source === source) {
      last.to = day;
      cursor = shiftDay(day, 1);
      continue;
    }
    out.push({ source, from: day, to: day });
    cursor = shiftDay(day, 1);
  }
  if (cursor <= to) out.push({ source: 'clean', from: cursor, to });
  return out;
}

/**
 * The store's aggregate reads, in one read transaction (a consistent snapshot):
 * rollups for clean days (their sums kept while the site's generation holds)
 * and live days, raw rows for dirty days, summed. Dirty days are rebuilt
 * first unless the store is read-only. Filtered reads (a `Selection`) and hour
 * buckets scan the column cache of the range's raw rows instead
 * (sqlite-scan.ts); rollups cannot answer them. Those first load the range's
 * missing days a day per turn of the event loop, so a cold cache never holds
 * up other requests for more than one day's load.
 */
export function createReads(db: Database.Database, rollups: Rollups, options: ReadsOptions) {
  const raw = createQueries(db);
  const rolled = createRollupQueries(db);
  const starts = new Map<string, number>();
  const startOf = (day: string, timezone: string) => {
    const key = `${timezone} ${day}`;
    let ms = starts.get(key);
    if (ms === undefined) {
      if (starts.size > 10_000) starts.clear();
      starts.set(key, (ms = dayStart(day, timezone)));
    }
    return ms;
  };

  const hotDays = (timezone: string): string[] => {
    const now = options.now();
    return [localDay(now, timezone), localDay(now - HOT_WINDOW_MS, timezone)];
  };

  const settle = db.transaction((siteId: string, timezone: string) => {
    const hot = hotDays(timezone);
    for (const day of rollups.liveDays(siteId, ALL.from, ALL.to)) if (!hot.includes(day)) rollups.settle(siteId, day);
  });
  const rebuildDay = db.transaction((siteId: string, day: string, timezone: string) => rollups.rebuild(siteId, day, timezone, hotDays(timezone).includes(day)));

  /**
   * Settles live days that cooled down, then rebuilds the listed dirty days of a site (hot ones
   * as live days), each in a transaction of its own: the WAL holds one day's rows at a time.
   */
  const refresh = (siteId: string, days: readonly string[]) => {
    const timezone = options.timezoneOf(siteId);
    if (timezone === undefined || options.readonly) return;
    try {
      settle.immediate(siteId, timezone);
      for (const day of days) rebuildDay.immediate(siteId, day, timezone);
    } catch (error) {
      // A full disk or a read-only file: the days stay as they are (dirty ones read raw, live ones from their
      // rollups), so the answer is the same, only slower; the next read tries again.
      if (!writeUnavailable(error)) throw error;
    }
  };

  /** Whether a read of `range` should refresh first: a dirty day in it, or a live day of the site no longer hot. */
  const stale = (range: DayRange): string[] | undefined => {
    const dirty = rollups.dirtyDays(range.siteId, range.from, range.to);
    if (dirty.length > 0) return dirty;
    const live = rollups.liveDays(range.siteId, ALL.from, ALL.to);
    if (live.length === 0) return undefined;
    const hot = hotDays(options.timezoneOf(range.siteId) ?? 'UTC');
    return live.some((day) => !hot.includes(day)) ? [] : undefined;
  };

  /** Runs `fn` in one read transaction: rollups and day states come from the same snapshot. */
  const snapshot = db.transaction((fn: () => unknown) => fn());

  const cache = new Map<string, { generation: number; value: unknown; bytes: number }>();
  let cachedBytes = 0;
  const cached = <T>(range: DayRange, key: string, get: (q: Aggregates, r: DayRange) => T): T => {
    const cacheKey = `${range.siteId}\u0000${range.from}\u0000${range.to}\u0000${key}`;
    const generation = rollups.generation(range.siteId);
    const hit = cache.get(cacheKey);
    if (hit?.generation === generation) return hit.value as T;
    if (hit) {
      cache.delete(cacheKey);
      cachedBytes -= hit.bytes;
    }
    const value = get(rolled, range);
    const bytes = resultBytes(value);
    if (cache.size >= MAX_CACHED || cachedBytes + bytes > MAX_CACHED_BYTES) {
      cache.clear();
      cachedBytes = 0;
    }
    // A result larger than the whole allowance is answered, not kept.
    if (bytes <= MAX_CACHED_BYTES) {
      cache.set(cacheKey, { generation, value, bytes });
      cachedBytes += bytes;
    }
    return value;
  };

  const read = <T>(range: DayRange, key: string, get: (q: Aggregates, r: DayRange) => T, merge: (parts: T[]) => T): T => {
    const days = stale(range);
    if (days) refresh(range.siteId, days);
    return snapshot(() => {
      const timezone = options.timezoneOf(range.siteId) ?? 'UTC';
      const parts: T[] = [];
      const { siteId } = range;
      for (const { source, from, to } of segments(range.from, range.to, rollups.dirtyDays(siteId, range.from, range.to), rollups.liveDays(siteId, range.from, range.to))) {
        const part = { siteId, from, to, startMs: startOf(from, timezone), endMs: startOf(shiftDay(to, 1), timezone) };
        parts.push(source === 'clean' ? cached(part, key, get) : get(source === 'live' ? rolled : raw, part));
      }
      return merge(parts);
    }) as T;
  };

  const columnCache: ColumnCache = createColumnCache(db, options.versions, options.columnCacheBytes);
  const zoneOf = (siteId: string) => options.timezoneOf(siteId) ?? 'UTC';
  const columns = createColumnReads(columnCache, zoneOf);
  const rawSelection = createRawSelectionReads(db, { plan: 'sets', timezoneOf: zoneOf });
  /** The loads reads have started and not finished. */
  const fills = new Set<Promise<void>>();
  /**
   * A read of the column cache: the range's cached days matched against the selection a
   * day per turn of the event loop (sqlite-column-cache.ts `prepare`); then the same refresh
   * as `read` and the scan of the cached days in one read transaction. The days the cache
   * does not hold (not loaded yet, changed since, too large) are read from the raw tables
   * (sqlite-selection-raw.ts, its `sets` plan), a day per read transaction and a turn of
   * the event loop apart (a day is milliseconds to tens of them; a month at once would hold
   * up every other request), and merged; meanwhile the cache loads them for the next reads.
   * No read waits for a load. The cached days and each raw day are each one snapshot; a
   * write landing between them is in the later ones only (docs/behaviour.md "Memory").
   */
  const scanned = async <T>(range: DayRange, selection: Selection | undefined, read: Scanned<T>): Promise<T> => {
    const timezone = zoneOf(range.siteId);
    const visit = selection && hasConditions(selection) ? columns.matcher(range.siteId, selection) : undefined;
    const missing = await columnCache.prepare(range, timezone, { visit, cachedOnly: true });
    const days = stale(range);
    if (days) refresh(range.siteId, days);
    const raw: string[] = [];
    const parts = [snapshot(() => read.columns(raw)) as T];
    for (const day of raw) {
      await nextTurn();
      parts.push(snapshot(() => read.raw({ siteId: range.siteId, from: day, to: day, startMs: startOf(day, timezone), endMs: startOf(shiftDay(day, 1), timezone) })) as T);
    }
    if (missing) {
      // After the answer, so the loads do not take turns from it. A load that fails (the store closed meanwhile) leaves the day to the raw tables.
      const filling = columnCache.prepare(range, timezone).then(() => {}, () => {});
      fills.add(filling);
      void filling.then(() => fills.delete(filling));
    }
    return parts.length === 1 ? parts[0]! : read.merge(parts);
  };
  /**
   * Days whose slices a read found stale, computed after the answer: the day's chunk loaded into the
   * column cache as its loads go (a step per turn of the event loop), the slices computed from it the
   * same way, then written. A day the cache will not hold (too large) stays read as before.
   */
  const slices = options.slices;
  /** Days read from slices and as before by reads that had a slice plan (tests, the bench). */
  const sliceStats = { sliced: 0, rest: 0 };
  const staleSlices = new Map<string, Set<string>>();
  let computing: Promise<void> | undefined;
  const computeStale = async () => {
    while (staleSlices.size > 0) {
      const [siteId, days] = staleSlices.entries().next().value!;
      const [day] = days;
      days.delete(day!);
      if (days.size === 0) staleSlices.delete(siteId);
      await nextTurn();
      if (!db.open) return;
      const timezone = zoneOf(siteId);
      try {
        await columnCache.prepare({ siteId, from: day!, to: day! }, timezone, { background: true });
      } catch {
        return; // the store closed meanwhile
      }
      if (!db.open) return;
      const held = snapshot(() => columnCache.held(siteId, day!, timezone)) as ReturnType<ColumnCache['held']>;
      if (held) await slices!.computeHeld(siteId, day!, held, () => !db.open);
    }
  };
  /**
   * A filtered read (or `/goals`, `/properties`) that `plan` answers from slices: the days whose
   * slices are valid summed in one snapshot, the other days (today, days written since, days
   * not computed yet) read by `scan` as before, a run at a time, and merged. Those days' slices are
   * computed after the answer (not in a read-only store, never for hot days).
   */
  const sliced = async <T>(range: DayRange, plan: SliceRead | undefined, fromSlices: (days: Days) => T, scan: (r: DayRange) => Promise<T>, merge: (parts: T[]) => T, goals: readonly string[] = []): Promise<T> => {
    if (!slices || !plan) return scan(range);
    const { part, rest, stale } = snapshot(() => {
      const { days, rest, stale } = slices.split(range.siteId, range.from, range.to, plan, goals);
      sliceStats.sliced += days.length;
      sliceStats.rest += rest.length;
      return { part: fromSlices(days), rest, stale };
    }) as { part: T; rest: string[]; stale: string[] };
    if (rest.length === 0) return part;
    const timezone = zoneOf(range.siteId);
    const parts = [part];
    for (const { from, to } of runsOf(rest)) {
      parts.push(await scan({ siteId: range.siteId, from, to, startMs: startOf(from, timezone), endMs: startOf(shiftDay(to, 1), timezone) }));
    }
    if (!options.readonly) {
      const days = stale.filter((day) => slices.computable(range.siteId, day));
      if (days.length > 0) {
        let known = staleSlices.get(range.siteId);
        if (!known) staleSlices.set(range.siteId, (known = new Set()));
        for (const day of days) known.add(day);
        computing ??= computeStale().finally(() => (computing = undefined));
      }
    }
    return merge(parts);
  };
  /** The slice plan of a read: one condition, or for the totals two (a pair). */
  const planOf = (selection: Selection | undefined, totals = false): SliceRead | undefined => slicePlan(selection) ?? (totals ? pairPlan(selection) : undefined);
  const sumSummary = (parts: SummaryTotals[]) => sumBy(parts, () => '')[0]!;
  const sumBreakdown = (parts: BreakdownTotals[][]) => sumBy(parts.flat(), (row) => row.key.join('\u0000'));
  const sumPages = (parts: PageTotals[][]) => sumBy(parts.flat(), (row) => row.path);
  const sumEvents = (parts: EventTotals[][]) => sumBy(parts.flat(), (row) => row.name);
  const sumProperties = (parts: PropertyTotals[][]) => sumBy(parts.flat(), (row) => row.key);

  return {
    refresh,
    columnCache,
    sliceStats: () => ({ ...sliceStats }),
    /** Settles once the days reads found stale have their slices again (or the store closed). */
    async slicesComputed(): Promise<void> {
      while (computing) await computing;
    },
    /** Settles once the loads that reads started (and those started meanwhile) have finished. */
    async filled(): Promise<void> {
      while (fills.size > 0) await Promise.all(fills);
    },
    summary: (range: DayRange, selection?: Selection) =>
      selection
        ? sliced(range, planOf(selection, true), (days) => slices!.reads.summary(range.siteId, planOf(selection, true)!, days),
            (r) => scanned(r, selection, { columns: (raw) => columns.summary(r, selection, raw), raw: (x) => rawSelection.summary(x, selection), merge: sumSummary }), sumSummary)
        : read(range, 'summary', (q, r) => q.summary(r), (parts): SummaryTotals =>
            sumBy(parts, () => '')[0] ?? { visitors: 0, sessions: 0, bounces: 0, durationMs: 0, pageviews: 0 }),
    timeseries: (range: DayRange, selection?: Selection) =>
      selection
        ? sliced(range, planOf(selection, true), (days) => slices!.reads.timeseries(range.siteId, planOf(selection, true)!, days),
            (r) => scanned(r, selection, { columns: (raw) => columns.timeseries(r, selection, raw), raw: (x) => rawSelection.timeseries(x, selection), merge: (parts) => parts.flat() }),
            (parts) => parts.flat())
        : read(range, 'timeseries', (q, r) => q.timeseries(r), (parts) => parts.flat()),
    sessionBreakdown: (range: DayRange, dimension: SessionDimension, selection?: Selection) =>
      selection
        ? sliced(range, planOf(selection), (days) => slices!.reads.sessionBreakdown(range.siteId, planOf(selection)!, days, dimension), (r) => scanned(r, selection, {
            columns: (raw) => columns.sessionBreakdown(r, dimension, selection, raw), raw: (x) => rawSelection.sessionBreakdown(x, dimension, selection), merge: sumBreakdown,
          }), sumBreakdown)
        : read(range, dimension, (q, r) => q.sessionBreakdown(r, dimension), sumBreakdown),
    pages: (range: DayRange, selection?: Selection) =>
      selection
        ? sliced(range, planOf(selection), (days) => slices!.reads.pages(range.siteId, planOf(selection)!, days),
            (r) => scanned(r, selection, { columns: (raw) => columns.pages(r, selection, raw), raw: (x) => rawSelection.pages(x, selection), merge: sumPages }), sumPages)
        : read(range, 'pages', (q, r) => q.pages(r), (parts): PageTotals[] => sumBy(parts.flat(), (row) => row.path).filter((p) => p.pageviews > 0)),
    customEvents: (range: DayRange, name?: string, selection?: Selection) =>
      selection
        ? sliced(range, planOf(selection), (days) => slices!.reads.customEvents(range.siteId, planOf(selection)!, days, name), (r) => scanned(r, selection, {
            columns: (raw) => columns.customEvents(r, name, selection, raw), raw: (x) => rawSelection.customEvents(x, name, selection), merge: sumEvents,
          }), sumEvents)
        : read(range, `events\u0000${name ?? ''}`, (q, r) => q.customEvents(r, name), (parts): EventTotals[] => sumBy(parts.flat(), (row) => row.name)),
    hourBuckets: (range: DayRange, starts: readonly number[], selection?: Selection) =>
      scanned(range, selection, {
        columns: (raw) => columns.hourBuckets(range, starts, selection, raw), raw: (r) => rawSelection.hourBuckets(r, starts, selection), merge: sumBuckets,
      }),
    // Properties, goals and funnels have no rollups: properties, goals and saved funnels sum slices for the past days that have them; the rest scan the column cache (which the server keeps warm).
    properties: (range: DayRange, name: string, property: string | undefined, selection?: Selection) =>
      sliced(range, planOf(selection), (days) => slices!.reads.properties(range.siteId, planOf(selection)!, days, name, property), (r) => scanned(r, selection, {
        columns: (raw) => columns.properties(r, name, property, selection, raw), raw: (x) => rawSelection.properties(x, name, property, selection), merge: sumProperties,
      }), sumProperties),
    goalTotals: (range: DayRange, goals: readonly GoalDefinition[], selection?: Selection) =>
      goals.length === 0
        ? Promise.resolve([])
        : sliced(range, planOf(selection), (days) => slices!.reads.goalTotals(range.siteId, planOf(selection)!, days, goals.map(goalKey)),
            (r) => scanned(r, selection, { columns: (raw) => columns.goalTotals(r, goals, selection, raw), raw: (x) => rawSelection.goalTotals(x, goals, selection), merge: sumGoals }),
            sumGoals, goals.map(goalKey)),
    funnelVisitors: (range: DayRange, steps: readonly GoalDefinition[], selection?: Selection) => {
      const scan = (r: DayRange) => scanned(r, selection, {
        columns: (raw) => columns.funnelVisitors(r, steps, selection, raw), raw: (x) => rawSelection.funnelVisitors(x, steps, selection), merge: sumSteps,
      });
      // A saved funnel's steps have slices; other steps (asked with `steps`) are scanned: computing days for them would never end.
      const key = funnelKey(steps);
      if (!slices?.computesFunnel(range.siteId, key)) return scan(range);
      return sliced(range, planOf(selection), (days) => slices.reads.funnelVisitors(range.siteId, planOf(selection)!, days, key, steps.length), scan, sumSteps, [key]);
    },
    liveVisitors: raw.liveVisitors,
  };
}
