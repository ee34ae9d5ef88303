/**
 * Sites by id for the collector: every beacon names its site, and asking storage each time
 * would cost more than the rest of the request.
 */
import type { Site, Storage } from '@siteline/core';
import type { Logger } from '../log.js';
import { OutageLog } from './outage-log.js';

/** How long a looked-up site (or its absence) is trusted; a new site is collected within this. */
export const SITE_CACHE_MS = 30_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  /** The settled answer, once there is one, and the same as a settled promise (returned to every beacon). */
  site: Site | undefined;
  answer: Promise<Site | undefined> | undefined;
  /** The lookup in flight (the first one, or a refresh of an expired answer). */
  pending: Promise<Site | undefined> | undefined;
  expires: number;
}

/**
 * A small time-bounded cache over `storage.getSite`, negative answers included (unknown
 * ids are exactly what a misconfigured embed sends over and over). Concurrent misses for
 * one id share a single lookup. While storage cannot answer (ClickHouse away), an expired
 * answer is kept and used: beacons of the sites seen before keep being collected (into the
 * spool); a site never seen gets the lookup's error. Failures are logged once per outage.
 *
 * @example
 * const sites = new SiteCache(storage);
 * const site = await sites.get('ST-blog', Date.now());
 */
export class SiteCache {
  private readonly entries = new Map<string, Entry>();
  private readonly outage: OutageLog;

  constructor(
    private readonly storage: Pick<Storage, 'getSite'>,
    options: { ttlMs?: number; logger?: Logger } = {},
  ) {
    this.ttlMs = options.ttlMs ?? SITE_CACHE_MS;
    this.outage = new OutageLog(options.logger ?? (() => {}), {
      down: 'collect: sites cannot be looked up; beacons of sites not seen before are answered 503',
      up: 'collect: sites are looked up again',
    });
  }

  private readonly ttlMs: number;

  /** The site, or `undefined` when there is no such site; rejects only when storage fails and nothing is known of the id. */
  get(id: string, now: number): Promise<Site | undefined> {
    const entry = this.entries.get(id);
    if (entry?.answer && entry.expires > now) return entry.answer;
    if (entry?.pending) return entry.pending;
    if (!entry && this.entries.size >= MAX_ENTRIES) this.entries.clear(); // crude, but bounded; refills in one round
    const known = entry !== undefined;
    const current: Entry = entry ?? { site: undefined, answer: undefined, pending: undefined, expires: 0 };
    const lookup = this.storage.getSite(id).then(
      (site) => {
        this.outage.recovered();
        current.site = site;
        current.answer = Promise.resolve(site);
        current.pending = undefined;
        current.expires = now + this.ttlMs;
        return site;
      },
      (error: unknown) => {
        this.outage.failed(error);
        current.pending = undefined;
        // Keep the last answer a while longer; without one, forget the id so the next beacon asks again.
        if (known) {
          current.expires = now + Math.min(this.ttlMs, 1000);
          return current.site;
        }
        if (this.entries.get(id) === current) this.entries.delete(id);
        throw error;
      },
    );
    current.pending = lookup;
    this.entries.set(id, current);
    return lookup;
  }
}
