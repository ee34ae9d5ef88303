import { localDay, shiftDay } from '../../time/zone.js';
import type { ColumnCache } from './sqlite-column-cache.js';

export interface WarmOptions {
  /** The sites to warm, in order, with their time zones. */
  sites: () => readonly { id: string; timezone: string }[];
  /** Days per site: today in the site's time zone and the days before it. */
  days: number;
  now: () => number;
  /** Stop once the cache holds this many bytes (queries keep the rest of the bound). */
  maxBytes: number;
  /** Asked after each day: true once the store is closed. */
  stopped: () => boolean;
}

/**
 * Fills the column cache in the background after a store opens, so the first
 * filtered query after a restart finds its days loaded: each site's last
 * `days` days, newest first (a dashboard's 1, 7 and 30 days all start today),
 * a step of a few milliseconds per turn of the event loop (requests are served
 * between two steps; a query's own loads go first), until the cache holds `maxBytes`. Days too large for the
 * cache are passed over after their first megabytes. Never rejects: a failure
 * only ends the warming, and queries then load what they need themselves.
 *
 * @example
 * await warmColumnCache(cache, { sites: () => [{ id: 'ST-demo', timezone: 'UTC' }], days: 30, now: Date.now, maxBytes: 128 * 1024 * 1024, stopped: () => false });
 */
export async function warmColumnCache(cache: ColumnCache, o: WarmOptions): Promise<void> {
  try {
    const sites = o.sites();
    for (let back = 0; back < o.days; back++) {
      for (const site of sites) {
        if (o.stopped() || cache.stats().bytes >= o.maxBytes) return;
        const day = shiftDay(localDay(o.now(), site.timezone), -back);
        await cache.prepare({ siteId: site.id, from: day, to: day }, site.timezone, { stop: o.stopped, background: true });
      }
    }
  } catch {
    // The cache stays as it is; a query loads its own days.
  }
}
