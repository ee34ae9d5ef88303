import type Database from 'better-sqlite3';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { daysBetween } from '../../time/zone.js';
import type { DayRange } from '../types.js';
import { createChunkReader } from './sqlite-chunk-reader.js';
import { createIncrementalLoader, type Reader, versionsOf } from './sqlite-column-loader.js';
import { createChunkBuilder } from './sqlite-chunk-builder.js';
import { ATTRIBUTES, chunkBytes, type DayChunk, Dictionary, dictionaryBytes, runSteps, type SiteDictionaries } from './sqlite-columns.js';
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

interface CachedChunk {
  chunk: DayChunk;
  timezone: string;
  /** The versions of `[chunk.day, ...chunk.dependsOn]` the chunk was loaded at (sqlite-day-versions.ts). */
  versions: number[];
  /** Memory counted for it (`chunkBytes` when last used). */
  bytes: number;
}

interface SiteCache {
  /** Append-only while the site's cache lives, so they stay valid for every chunk, whenever loaded. */
  dicts: SiteDictionaries;
  chunks: Map<string, CachedChunk>;
  /** Days whose rows passed the day's share, with the zone and version they had then. */
  tooLarge: Map<string, { timezone: string; version: number }>;
  /** Dictionary memory counted (`dictionaryBytes` when last measured). */
  dictBytes: number;
  /** Set when the dictionaries alone pass the bound: the next read starts the site afresh. */
  stale: boolean;
}

/** What the cache did since it was made, for tests and the bench. */
export interface ColumnCacheStats {
  /** Day chunks loaded from the raw tables. */
  loads: number;
  /** Memory held now (chunks and dictionaries, estimated), bytes. */
  bytes: number;
  /** Days given up as larger than their share (each time one was tried). */
  tooLarge: number;
}

const newSite = (): SiteCache => {
  const paths = new Dictionary();
  const dicts = {
    paths, names: new Dictionary(), propKeys: new Dictionary(), propValues: new Dictionary(),
    attributes: ATTRIBUTES.map((a) => (a === 'entryPath' ? paths : new Dictionary())),
  };
  return { dicts, chunks: new Map(), tooLarge: new Map(), dictBytes: 0, stale: false };
};

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
 * (one query), loads what is still missing or changed since, and yields the range's
 * chunks. A range larger than the bound is still answered: its chunks pass through.
 */
export function createColumnCache(db: Database.Database, versions: DayVersions, maxBytes = DEFAULT_COLUMN_CACHE_BYTES) {
  const own: Reader = { db, readDay: createChunkReader(db), versions };
  const maxText = maxBytes * READ_SHARE;
  const sites = new Map<string, SiteCache>();
  /** Every cached chunk in least-recently-used order (a Map keeps insertion order). */
  const lru = new Map<string, { site: SiteCache; day: string }>();
  const stats = { loads: 0, bytes: 0, tooLarge: 0 };

  const evict = (site: SiteCache, day: string, siteId: string) => {
    const cached = site.chunks.get(day);
    if (!cached) return;
    site.chunks.delete(day);
    lru.delete(`${siteId}\u0000${day}`);
    stats.bytes -= cached.bytes;
  };
  /** Measures the dictionaries again (they grow as chunks load). */
  const measure = (site: SiteCache) => {
    const bytes = dictionaryBytes(site.dicts);
    stats.bytes += bytes - site.dictBytes;
    site.dictBytes = bytes;
  };
  const evictOverBound = () => {
    for (const [key, { site, day }] of lru) {
      if (stats.bytes <= maxBytes) return;
      evict(site, day, key.slice(0, key.indexOf('\u0000')));
    }
    // Only dictionaries left over the bound: those sites start afresh at their next read.
    if (stats.bytes > maxBytes) for (const site of sites.values()) site.stale ||= site.dictBytes > 0;
  };

  /** The site's cache; a stale one is dropped first (readers holding it keep a consistent copy). */
  const siteCache = (siteId: string): SiteCache => {
    let site = sites.get(siteId);
    if (site?.stale) {
      for (const day of [...site.chunks.keys()]) evict(site, day, siteId);
      stats.bytes -= site.dictBytes;
      site = undefined;
    }
    if (!site) sites.set(siteId, (site = newSite()));
    return site;
  };
  const current = (siteId: string, site: SiteCache) => sites.get(siteId) === site;

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
    if (!live) return cached;
    evict(site, day, siteId);
    site.chunks.set(day, cached);
    lru.set(`${siteId}\u0000${day}`, { site, day });
    stats.bytes += cached.bytes;
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

  /** Marks a chunk most recently used, and counts what the scans have kept in it since. */
  const touch = (siteId: string, cached: CachedChunk) => {
    const key = `${siteId}\u0000${cached.chunk.day}`;
    const entry = lru.get(key);
    if (!entry) return;
    lru.delete(key);
    lru.set(key, entry);
    const bytes = chunkBytes(cached.chunk);
    stats.bytes += bytes - cached.bytes;
    cached.bytes = bytes;
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
     * query asked for. Outside any transaction; resolves when done or when `stop()`, asked
     * after each day, says so.
     */
    async prepare(
      range: Pick<DayRange, 'siteId' | 'from' | 'to'>,
      timezone: string,
      options: { budget?: number; stop?: () => boolean; visit?: (chunk: DayChunk) => void; background?: boolean } = {},
    ): Promise<void> {
      const site = siteCache(range.siteId);
      const days = daysBetween(range.from, range.to);
      let now = rangeVersions(site, range.siteId, days);
      let held = 0;
      const background = options.background ?? false;
      const end = background ? () => {} : loader.foreground();
      try {
        for (const day of days) {
          if (held >= (options.budget ?? maxBytes)) return;
          if (tooLarge(site, day, timezone, now)) continue;
          let cached = site.chunks.get(day);
          if (!cached || !valid(cached, timezone, now)) {
            cached = await loadIncrementally(range.siteId, site, day, timezone, background);
            evictOverBound();
            if (options.stop?.()) return;
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
      } finally {
        end();
      }
    },

    /**
     * The range's chunks, valid in the caller's read transaction (what is missing or stale is
     * loaded now); the days too large to cache are pushed to `raw` instead, for the caller to
     * read from the raw tables.
     */
    *forRange(range: DayRange, timezone: string, raw: string[]): Generator<DayChunk> {
      const site = siteCache(range.siteId);
      const days = daysBetween(range.from, range.to);
      const now = rangeVersions(site, range.siteId, days);
      for (const day of days) {
        let cached = site.chunks.get(day);
        if (cached && valid(cached, timezone, now)) touch(range.siteId, cached);
        else cached = tooLarge(site, day, timezone, now) ? undefined : loadNow(range.siteId, site, day, timezone);
        if (!cached) {
          raw.push(day);
          continue;
        }
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
