import type Database from 'better-sqlite3';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { daysBetween } from '../../time/zone.js';
import type { DayRange } from '../types.js';
import { createChunkReader } from './sqlite-chunk-reader.js';
import { createIncrementalLoader, type Reader, versionsOf } from './sqlite-column-loader.js';
import type { ColumnCacheStats } from './sqlite-column-budget.js';
export type { ColumnCacheStats };
import { createChunkBuilder } from './sqlite-chunk-builder.js';
import { type CachedChunk, createColumnBudget, type SiteCache } from './sqlite-column-budget.js';
import { chunkBytes, type DayChunk, runSteps, type SiteDictionaries } from './sqlite-columns.js';
import type { DayVersions } from './sqlite-day-versions.js';

/** Default bound of the column cache: 256 MiB (`COLUMN_CACHE_MB`). */
export const DEFAULT_COLUMN_CACHE_BYTES = 256 * 1024 * 1024;

/**
 * A day is cached when its chunk (and the strings it adds) is at most this share of the bound;
 * a load gives up once the rows it read pass `READ_SHARE` of it (about 2.5 times a chunk of
 * ordinary rows, more for long strings), so a load never holds more than that. Such days are
 * read raw.
 */
const DAY_SHARE = 1 / 8;
const READ_SHARE = 1 / 4;

/** Days remembered as too large, per site (a hint: reading them raw is exact either way). */
const MAX_TOO_LARGE = 4_096;

/**
 * The per-store cache of day chunks (sqlite-columns.ts), bounded in bytes: the chunks'
 * arrays and the sites' dictionaries (each string held once per site), least recently
 * used days going first. A day whose chunk would pass an eighth of the bound is not kept
 * (its load stops once the rows it read pass a quarter): the cache remembers the day, and
 * filtered reads of it go to the raw tables (`forRange` reports it in `raw`). When the dictionaries alone pass the
 * bound, the site starts afresh at its next read. A chunk stays valid while the versions
 * of its day and of the days it depends on hold (sqlite-day-versions.ts), so a write
 * reloads only the days it changed, whichever connection or process wrote.
 *
 * `prepare` loads a range's missing or stale days incrementally: on a file, a query of
 * about half a megabyte or a few milliseconds of building at a time (sqlite-column-loader.ts),
 * with a turn of the event loop between; in memory, a day at a time. `forRange`, called
 * inside a read transaction, checks every chunk against the versions of that snapshot
 * (one query) and yields the range's valid chunks; the caller reads the other days from
 * the raw tables, so no read waits for a load.
 */
export function createColumnCache(db: Database.Database, versions: DayVersions, maxBytes = DEFAULT_COLUMN_CACHE_BYTES) {
  const own: Reader = { db, readDay: createChunkReader(db), versions };
  const maxText = maxBytes * READ_SHARE;
  const budget = createColumnBudget(maxBytes);
  const { stats, siteCache, current, measure, evictOverBound } = budget;

  /** The versions of the range's days and of every day its cached chunks depend on, in one query. */
  const rangeVersions = (site: SiteCache, siteId: string, days: readonly string[]): Map<string, number> => {
    let from = days[0]!;
    let to = days[days.length - 1]!;
    for (const day of days) {
      for (const d of site.chunks.get(day)?.chunk.dependsOn ?? []) {
        if (d < from) from = d;
        if (d > to) to = d;
      }
    }
    return versions.between(siteId, from, to);
  };

  const valid = (cached: CachedChunk, timezone: string, now: Map<string, number>): boolean =>
    cached.timezone === timezone && [cached.chunk.day, ...cached.chunk.dependsOn].every((d, i) => (now.get(d) ?? 0) === cached.versions[i]);
  /** Whether `day` is known too large at these versions. */
  const tooLarge = (site: SiteCache, day: string, timezone: string, now: Map<string, number>): boolean => {
    const known = site.tooLarge.get(day);
    return known !== undefined && known.timezone === timezone && known.version === (now.get(day) ?? 0);
  };

  /**
   * Keeps a loaded chunk (with the versions of its snapshot); remembers the day as too large
   * instead when its rows passed `maxText` (no chunk) or the chunk and the strings it added
   * pass `DAY_SHARE` of the bound.
   */
  const put = (siteId: string, site: SiteCache, day: string, chunk: DayChunk | undefined, timezone: string, now: Map<string, number>): CachedChunk | undefined => {
    const live = current(siteId, site);
    const before = site.dictBytes;
    if (live) measure(site);
    const cached = chunk && { chunk, timezone, versions: [chunk.day, ...chunk.dependsOn].map((d) => now.get(d) ?? 0), bytes: chunkBytes(chunk) };
    if (!cached || cached.bytes + site.dictBytes - before > maxBytes * DAY_SHARE) {
      stats.tooLarge++;
      if (site.tooLarge.size >= MAX_TOO_LARGE) site.tooLarge.clear();
      site.tooLarge.set(day, { timezone, version: now.get(day) ?? 0 });
      return undefined;
    }
    stats.loads++;
    // A site started afresh meanwhile: the chunk serves its reader, coded with the dictionaries it holds.
    if (live) budget.keep(siteId, site, day, cached);
    return cached;
  };

  /** Loads one day at once on the store's connection, in one snapshot (a savepoint inside the caller's transaction). */
  const loadNow = db.transaction((siteId: string, site: SiteCache, day: string, timezone: string): CachedChunk | undefined => {
    const builder = createChunkBuilder(day, site.dicts);
    if (runSteps(own.readDay(siteId, day, timezone, builder.sink, maxText)) === undefined) {
      return put(siteId, site, day, undefined, timezone, versions.between(siteId, day, day));
    }
    return put(siteId, site, day, runSteps(builder.finish()), timezone, versionsOf(own, siteId, day, builder.foreignDays()));
  });

  const loader = createIncrementalLoader(db);
  const inflight = new Map<SiteCache, Map<string, { pending: Promise<CachedChunk | undefined>; promote: () => void }>>();
  /** Loads a day incrementally (at once in memory, with a turn of the event loop after it); one load per site's day at a time. */
  const loadIncrementally = (siteId: string, site: SiteCache, day: string, timezone: string, background: boolean): Promise<CachedChunk | undefined> => {
    let loads = inflight.get(site);
    if (!loads) inflight.set(site, (loads = new Map()));
    const known = loads.get(day);
    if (known) {
      if (!background) known.promote();
      return known.pending;
    }
    let promote = () => {};
    const pending = (async () => {
      if (!loader.available()) {
        const cached = loadNow(siteId, site, day, timezone);
        await nextTurn();
        return cached;
      }
      const loading = loader.load(siteId, day, timezone, site.dicts, { maxText, background });
      promote = loading.promote;
      const { chunk, versions: now } = await loading;
      return put(siteId, site, day, chunk, timezone, now);
    })();
    loads.set(day, { pending, promote: () => promote() });
    const done = () => {
      loads.delete(day);
      if (loads.size === 0) inflight.delete(site);
    };
    void pending.then(done, done);
    return pending;
  };

  return {
    /** The site's dictionaries (valid for the chunks `forRange` yields next). Call first in a read. */
    dictionaries: (siteId: string): SiteDictionaries => siteCache(siteId).dicts,

    /**
     * Loads the range's missing and stale days incrementally (see above), until the range
     * holds `budget` bytes (default: the bound; more would only evict what was just loaded),
     * and calls `visit` on each day's chunk, a turn of the event loop apart (work kept in the
     * chunk, such as which sessions match a selection, then costs the scan nothing). Days
     * too large to cache are passed over. `background` (the warming): its loads wait for any a
     * query asked for. `cachedOnly`: loads nothing, visits the days held and resolves to
     * whether any day was missing or stale. Outside any transaction; resolves when done or
     * when `stop()`, asked after each day, says so.
     */
    async prepare(
      range: Pick<DayRange, 'siteId' | 'from' | 'to'>,
      timezone: string,
      options: { budget?: number; stop?: () => boolean; visit?: (chunk: DayChunk) => void; background?: boolean; cachedOnly?: boolean } = {},
    ): Promise<boolean> {
      const site = siteCache(range.siteId);
      const days = daysBetween(range.from, range.to);
      let now = rangeVersions(site, range.siteId, days);
      let held = 0;
      const background = options.background ?? false;
      const end = background || options.cachedOnly ? () => {} : loader.foreground();
      let missing = false;
      try {
        for (const day of days) {
          if (held >= (options.budget ?? maxBytes)) return missing;
          if (tooLarge(site, day, timezone, now)) continue;
          let cached = site.chunks.get(day);
          if (!cached || !valid(cached, timezone, now)) {
            missing = true;
            if (options.cachedOnly) continue;
            cached = await loadIncrementally(range.siteId, site, day, timezone, background);
            evictOverBound();
            if (options.stop?.()) return missing;
            // Writes may have come in meanwhile: judge the next days by the versions now.
            now = rangeVersions(site, range.siteId, days);
            if (!cached) continue;
          }
          held += cached.bytes;
          if (options.visit) {
            options.visit(cached.chunk);
            await nextTurn();
          }
        }
        return missing;
      } finally {
        end();
      }
    },

    /**
     * The range's chunks that are valid in the caller's read transaction; the other days
     * (not loaded, changed since, too large to cache) are pushed to `raw` instead, for the
     * caller to read from the raw tables.
     */
    *forRange(range: DayRange, timezone: string, raw: string[]): Generator<DayChunk> {
      const site = siteCache(range.siteId);
      const days = daysBetween(range.from, range.to);
      const now = rangeVersions(site, range.siteId, days);
      for (const day of days) {
        const cached = site.chunks.get(day);
        if (!cached || !valid(cached, timezone, now)) {
          raw.push(day);
          continue;
        }
        budget.touch(range.siteId, cached);
        yield cached.chunk;
      }
    },

    /**
     * A day's chunk if the cache holds it valid in the caller's snapshot, with the dictionaries
     * its codes read with and the versions it was loaded at (`[day, version]` of the day and of
     * the days it depends on): for work kept beside the cache (slices) computed from it.
     */
    held(siteId: string, day: string, timezone: string): { chunk: DayChunk; dicts: SiteDictionaries; versions: [string, number][] } | undefined {
      const site = siteCache(siteId);
      const cached = site.chunks.get(day);
      if (!cached || !valid(cached, timezone, rangeVersions(site, siteId, [day]))) return undefined;
      return { chunk: cached.chunk, dicts: site.dicts, versions: [cached.chunk.day, ...cached.chunk.dependsOn].map((d, i) => [d, cached.versions[i]!]) };
    },

    stats: (): ColumnCacheStats => ({ ...stats }),

    /** Closes the loader's connection, if open (an incremental load in progress then fails). */
    close: (): void => loader.close(),
  };
}

export type ColumnCache = ReturnType<typeof createColumnCache>;
