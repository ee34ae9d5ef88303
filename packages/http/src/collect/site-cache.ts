/**
 * Sites by id for the collector: every beacon names its site, and asking storage each time
 * would cost more than the rest of the request.
 */
import type { Site, Storage } from '@siteline/core';

/** How long a looked-up site (or its absence) is trusted; a new site is collected within this. */
export const SITE_CACHE_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * A small time-bounded cache over `storage.getSite`, negative answers included (unknown
 * ids are exactly what a misconfigured embed sends over and over). Concurrent misses for
 * one id share a single lookup.
 *
 * @example
 * const sites = new SiteCache(storage);
 * const site = await sites.get('ST-blog', Date.now());
 */
export class SiteCache {
  private readonly entries = new Map<string, { site: Promise<Site | undefined>; expires: number }>();

  constructor(
    private readonly storage: Pick<Storage, 'getSite'>,
    private readonly ttlMs = SITE_CACHE_MS,
  ) {}

  /** The site, or `undefined` when there is no such site. */
  get(id: string, now: number): Promise<Site | undefined> {
    const hit = this.entries.get(id);
    if (hit && hit.expires > now) return hit.site;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear(); // crude, but bounded; refills in one round
    const site = this.storage.getSite(id);
    this.entries.set(id, { site, expires: now + this.ttlMs });
    // A failed lookup is not remembered: the next request asks again.
    site.catch(() => {
      if (this.entries.get(id)?.site === site) this.entries.delete(id);
    });
    return site;
  }
}
