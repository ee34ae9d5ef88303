/**
 * What the column cache holds against its bound (sqlite-column-cache.ts): each site's
 * dictionaries and chunks, the chunks in least-recently-used order, and their memory in
 * bytes (estimated: `chunkBytes`, `dictionaryBytes`). Past the bound the least recently
 * used chunks go; when the dictionaries alone pass it, their sites start afresh at their
 * next read (`siteCache`), while a reader holding the old one keeps a consistent copy.
 */
import { ATTRIBUTES, chunkBytes, type DayChunk, Dictionary, dictionaryBytes, type SiteDictionaries } from './sqlite-columns.js';

export interface CachedChunk {
  chunk: DayChunk;
  timezone: string;
  /** The versions of `[chunk.day, ...chunk.dependsOn]` the chunk was loaded at (sqlite-day-versions.ts). */
  versions: number[];
  /** Memory counted for it (`chunkBytes` when last used). */
  bytes: number;
}

export interface SiteCache {
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

/** An empty site: its dictionaries (paths and entry pages share one) and no chunks. */
const newSite = (): SiteCache => {
  const paths = new Dictionary();
  const dicts = {
    paths, names: new Dictionary(), propKeys: new Dictionary(), propValues: new Dictionary(),
    attributes: ATTRIBUTES.map((a) => (a === 'entryPath' ? paths : new Dictionary())),
  };
  return { dicts, chunks: new Map(), tooLarge: new Map(), dictBytes: 0, stale: false };
};

/** The cache's memory and what it holds, against `maxBytes`. */
export function createColumnBudget(maxBytes: number) {
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
  /** Keeps a chunk of a site's day (the site's current cache), counted as its `bytes`. */
  const keep = (siteId: string, site: SiteCache, day: string, cached: CachedChunk) => {
    evict(site, day, siteId);
    site.chunks.set(day, cached);
    lru.set(`${siteId}\u0000${day}`, { site, day });
    stats.bytes += cached.bytes;
  };

  return { stats, siteCache, current, measure, evictOverBound, keep, touch };
}
