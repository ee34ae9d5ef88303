import type Database from 'better-sqlite3';
import { daysBetween } from '../../time/zone.js';
import type { DayRange } from '../types.js';
import { ATTRIBUTES, createChunkLoader, type DayChunk, Dictionary, type SiteDictionaries } from './sqlite-columns.js';
import type { Rollups } from './sqlite-rollups.js';

/** Default bound of the column cache, in rows (sessions + events): about 30 bytes each. */
export const DEFAULT_COLUMN_CACHE_ROWS = 4_000_000;

const ALL = { from: '0000-00-00', to: '9999-99-99' };

interface CachedChunk {
  chunk: DayChunk;
  /** The write counter when loaded, if the chunk reads a live or dirty day; undefined when it reads only clean days. */
  writes: number | undefined;
}

interface SiteCache {
  generation: number;
  dicts: SiteDictionaries;
  chunks: Map<string, CachedChunk>;
}

/**
 * The per-store cache of day chunks (sqlite-columns.ts), bounded by `maxRows`
 * (least recently used chunks go first). `forRange` yields the chunks of a
 * range's days, loading what is missing or stale; call it inside a read
 * transaction so rows, generations and day states are one snapshot. A range
 * larger than the bound is still answered: its chunks pass through the cache.
 */
export function createColumnCache(db: Database.Database, rollups: Rollups, maxRows = DEFAULT_COLUMN_CACHE_ROWS) {
  const load = createChunkLoader(db);
  const writeCounter = db.prepare<[], number>('SELECT next FROM event_ids').pluck();
  const sites = new Map<string, SiteCache>();
  /** Every cached chunk in least-recently-used order (a Map keeps insertion order). */
  const lru = new Map<string, { siteId: string; day: string; size: number }>();
  let rows = 0;

  const evict = (siteId: string, day: string) => {
    const key = `${siteId}\u0000${day}`;
    const entry = lru.get(key);
    if (!entry) return;
    lru.delete(key);
    rows -= entry.size;
    sites.get(siteId)?.chunks.delete(day);
  };

  const siteCache = (siteId: string): SiteCache => {
    const generation = rollups.generation(siteId);
    let site = sites.get(siteId);
    if (site?.generation !== generation) {
      for (const day of site?.chunks.keys() ?? []) evict(siteId, day);
      const paths = new Dictionary();
      const dicts = { paths, names: new Dictionary(), attributes: ATTRIBUTES.map((a) => (a === 'entryPath' ? paths : new Dictionary())) };
      sites.set(siteId, (site = { generation, dicts, chunks: new Map() }));
    }
    return site;
  };

  return {
    /** The site's dictionaries (valid for the chunks `forRange` yields). */
    dictionaries: (siteId: string): SiteDictionaries => siteCache(siteId).dicts,

    *forRange(range: DayRange, timezone: string): Generator<DayChunk> {
      const site = siteCache(range.siteId);
      const volatile = new Set([...rollups.dirtyDays(range.siteId, ALL.from, ALL.to), ...rollups.liveDays(range.siteId, ALL.from, ALL.to)]);
      const writes = volatile.size > 0 ? writeCounter.get()! : 0;
      for (const day of daysBetween(range.from, range.to)) {
        const key = `${range.siteId}\u0000${day}`;
        let cached = site.chunks.get(day);
        if (cached && cached.writes !== undefined && cached.writes !== writes) {
          evict(range.siteId, day);
          cached = undefined;
        }
        if (cached) {
          const entry = lru.get(key)!;
          lru.delete(key);
          lru.set(key, entry);
        } else {
          const chunk = load(range.siteId, day, timezone, site.dicts);
          const reads = [day, ...chunk.dependsOn].some((d) => volatile.has(d));
          cached = { chunk, writes: reads ? writes : undefined };
          site.chunks.set(day, cached);
          lru.set(key, { siteId: range.siteId, day, size: chunk.size });
          rows += chunk.size;
        }
        yield cached.chunk;
        // Over the bound: drop the least recently used chunks (the one just yielded last, if it must).
        for (const [, entry] of lru) {
          if (rows <= maxRows) break;
          evict(entry.siteId, entry.day);
        }
      }
    },
  };
}

export type ColumnCache = ReturnType<typeof createColumnCache>;
