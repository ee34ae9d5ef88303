import { localDay, shiftDay } from '../../time/zone.js';
import type { ColumnCache } from './sqlite-column-cache.js';

export interface WarmOptions {
  /** The sites to warm, in order, with their time zones. */
  sites: () => readonly { id: string; timezone: string }[];
  /** Days per site: today in the site's time zone and the days before it. */
  days: number;
  now: () => number;
  /** Stop once the cache holds this many rows (queries keep the rest of the bound). */
  maxRows: number;
  /** Asked after each day: true once the store is closed. */
  stopped: () => boolean;
}

/**
 * Fills the column cache in the background after a store opens, so the first
 * filtered query after a restart finds its days loaded: each site's last
 * `days` days, newest first (a dashboard's 1, 7 and 30 days all start today),
 * one day per turn of the event loop (requests are served between two days),
 * until the cache holds `maxRows` rows. Never rejects: a failure only ends the
 * warming, and queries then load what they need themselves.
 *
 * @example
 * await warmColumnCache(cache, { sites: () => [{ id: 'ST-demo', timezone: 'UTC' }], days: 30, now: Date.now, maxRows: 2_000_000, stopped: () => false });
 */
export async function warmColumnCache(cache: ColumnCache, o: WarmOptions): Promise<void> {
  try {
    const sites = o.sites();
    for (let back = 0; back < o.days; back++) {
      for (const site of sites) {
        if (o.stopped() || cache.stats().rows >= o.maxRows) return;
        const day = shiftDay(localDay(o.now(), site.timezone), -back);
        await cache.prepare({ siteId: site.id, from: day, to: day }, site.timezone, { stop: o.stopped });
      }
    }
  } catch {
    // The cache stays as it is; a query loads its own days.
  }
}
