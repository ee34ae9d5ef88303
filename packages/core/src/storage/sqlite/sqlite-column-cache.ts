import type Database from 'better-sqlite3';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { daysBetween } from '../../time/zone.js';
import type { DayRange } from '../types.js';
import { createChunkReader } from './sqlite-chunk-reader.js';
import { createIncrementalLoader, type Reader, versionsOf } from './sqlite-column-loader.js';
import { ATTRIBUTES, buildChunk, type DayChunk, Dictionary, runSteps, type SiteDictionaries } from './sqlite-columns.js';
import type { DayVersions } from './sqlite-day-versions.js';

/** Default bound of the column cache, in rows (sessions + events): about 30 bytes each. */
export const DEFAULT_COLUMN_CACHE_ROWS = 4_000_000;

interface CachedChunk {
  chunk: DayChunk;
  timezone: string;
  /** The versions of `[chunk.day, ...chunk.dependsOn]` the chunk was loaded at (sqlite-day-versions.ts). */
  versions: number[];
}

interface SiteCache {
  /** Append-only, so they stay valid for every chunk, whenever loaded. */
  dicts: SiteDictionaries;
  chunks: Map<string, CachedChunk>;
}

/** What the cache did since it was made, for tests and the bench. */
export interface ColumnCacheStats {
  /** Day chunks loaded from the raw tables. */
  loads: number;
  /** Rows held now. */
  rows: number;
}

/**
 * The per-store cache of day chunks (sqlite-columns.ts), bounded by `maxRows`
 * (least recently used chunks go first). A chunk stays valid while the versions
 * of its day and of the days it depends on hold (sqlite-day-versions.ts), so a
 * write reloads only the days it changed, whichever connection or process wrote.
 *
 * `prepare` loads a range's missing or stale days incrementally: on a file, a
 * batch of rows or a phase of building at a time (sqlite-column-loader.ts), so
 * no single stretch of work on the event loop is longer than that; in memory, a
 * day at a time. `forRange`, called inside a read transaction, checks every
 * chunk against the versions of that snapshot (one query), loads what is still
 * missing or changed since, and yields the range's chunks. A range larger than
 * the bound is still answered: its chunks pass through the cache.
 */
export function createColumnCache(db: Database.Database, versions: DayVersions, maxRows = DEFAULT_COLUMN_CACHE_ROWS) {
  const own: Reader = { db, readDay: createChunkReader(db), versions };
  const sites = new Map<string, SiteCache>();
  /** Every cached chunk in least-recently-used order (a Map keeps insertion order). */
  const lru = new Map<string, { siteId: string; day: string; size: number }>();
  const stats = { loads: 0, rows: 0 };

  const evict = (siteId: string, day: string) => {
    const key = `${siteId}\u0000${day}`;
    const entry = lru.get(key);
    if (!entry) return;
    lru.delete(key);
    stats.rows -= entry.size;
    sites.get(siteId)?.chunks.delete(day);
  };
  const evictOverBound = () => {
    for (const [, entry] of lru) {
      if (stats.rows <= maxRows) break;
      evict(entry.siteId, entry.day);
    }
  };

  const siteCache = (siteId: string): SiteCache => {
    let site = sites.get(siteId);
    if (!site) {
      const paths = new Dictionary();
      const dicts = {
        paths, names: new Dictionary(), propKeys: new Dictionary(), propValues: new Dictionary(),
        attributes: ATTRIBUTES.map((a) => (a === 'entryPath' ? paths : new Dictionary())),
      };
      sites.set(siteId, (site = { dicts, chunks: new Map() }));
    }
    return site;
  };

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

  const valid = (cached: CachedChunk, timezone: string, current: Map<string, number>): boolean =>
    cached.timezone === timezone && [cached.chunk.day, ...cached.chunk.dependsOn].every((d, i) => (current.get(d) ?? 0) === cached.versions[i]);

  /** Caches a chunk with the versions of its snapshot. */
  const put = (siteId: string, site: SiteCache, chunk: DayChunk, timezone: string, current: Map<string, number>): CachedChunk => {
    const cached = { chunk, timezone, versions: [chunk.day, ...chunk.dependsOn].map((d) => current.get(d) ?? 0) };
    evict(siteId, chunk.day);
    site.chunks.set(chunk.day, cached);
    lru.set(`${siteId}\u0000${chunk.day}`, { siteId, day: chunk.day, size: chunk.size });
    stats.rows += chunk.size;
    stats.loads++;
    return cached;
  };

  /** Loads one day at once on the store's connection, in one snapshot (a savepoint inside the caller's transaction). */
  const loadNow = db.transaction((siteId: string, site: SiteCache, day: string, timezone: string): CachedChunk => {
    const rows = runSteps(own.readDay(siteId, day, timezone));
    return put(siteId, site, runSteps(buildChunk(rows, site.dicts)), timezone, versionsOf(own, siteId, rows));
  });

  const loader = createIncrementalLoader(db);
  const inflight = new Map<string, Promise<CachedChunk>>();
  /** Loads a day incrementally (at once in memory, with a turn of the event loop after it); one load per day at a time. */
  const loadIncrementally = (siteId: string, site: SiteCache, day: string, timezone: string): Promise<CachedChunk> => {
    const key = `${siteId}\u0000${day}`;
    let pending = inflight.get(key);
    if (pending) return pending;
    pending = (async () => {
      if (!loader.available()) {
        const cached = loadNow(siteId, site, day, timezone);
        await nextTurn();
        return cached;
      }
      const { chunk, versions: current } = await loader.load(siteId, day, timezone, site.dicts);
      return put(siteId, site, chunk, timezone, current);
    })();
    inflight.set(key, pending);
    void pending.then(
      () => inflight.delete(key),
      () => inflight.delete(key),
    );
    return pending;
  };

  /** Marks a chunk most recently used. */
  const touch = (siteId: string, day: string) => {
    const key = `${siteId}\u0000${day}`;
    const entry = lru.get(key);
    if (!entry) return;
    lru.delete(key);
    lru.set(key, entry);
  };

  return {
    /** The site's dictionaries (valid for the chunks `forRange` yields). */
    dictionaries: (siteId: string): SiteDictionaries => siteCache(siteId).dicts,

    /**
     * Loads the range's missing and stale days incrementally (see above), until
     * the range holds `budget` rows (default: the bound; more would only evict
     * what was just loaded), and calls `visit` on each day's chunk, a turn of the
     * event loop apart (work kept in the chunk, such as which sessions match a
     * selection, then costs the scan nothing). Outside any transaction; resolves
     * when done or when `stop()`, asked after each day, says so.
     */
    async prepare(
      range: Pick<DayRange, 'siteId' | 'from' | 'to'>,
      timezone: string,
      options: { budget?: number; stop?: () => boolean; visit?: (chunk: DayChunk) => void } = {},
    ): Promise<void> {
      const site = siteCache(range.siteId);
      const days = daysBetween(range.from, range.to);
      let current = rangeVersions(site, range.siteId, days);
      let held = 0;
      for (const day of days) {
        if (held >= (options.budget ?? maxRows)) return;
        let cached = site.chunks.get(day);
        if (!cached || !valid(cached, timezone, current)) {
          cached = await loadIncrementally(range.siteId, site, day, timezone);
          evictOverBound();
          if (options.stop?.()) return;
          // Writes may have come in meanwhile: judge the next days by the versions now.
          current = rangeVersions(site, range.siteId, days);
        }
        held += cached.chunk.size;
        if (options.visit) {
          options.visit(cached.chunk);
          await nextTurn();
        }
      }
    },

    /** The range's chunks, valid in the caller's read transaction (load what is missing or stale now). */
    *forRange(range: DayRange, timezone: string): Generator<DayChunk> {
      const site = siteCache(range.siteId);
      const days = daysBetween(range.from, range.to);
      const current = rangeVersions(site, range.siteId, days);
      for (const day of days) {
        let cached = site.chunks.get(day);
        if (cached && valid(cached, timezone, current)) touch(range.siteId, day);
        else cached = loadNow(range.siteId, site, day, timezone);
        yield cached.chunk;
        // Over the bound: drop the least recently used chunks (the one just yielded last, if it must).
        evictOverBound();
      }
    },

    stats: (): ColumnCacheStats => ({ ...stats }),

    /** Closes the loader's connection, if open (an incremental load in progress then fails). */
    close: (): void => loader.close(),
  };
}

export type ColumnCache = ReturnType<typeof createColumnCache>;
