/**
 * From a validated beacon to a stored event, through the core's one derivation path:
 * `enrichEvent` (path, campaign parameters, visitor id, referrer source, channel, device,
 * country), then the session by the 30-minute rule and the session's first-event attributes.
 */
import { enrichEvent, type IncomingEvent, isBotUserAgent, localDay, type SaltStore, type Storage } from '@siteline/core';
import type { BatchWriter } from './batch-writer.js';
import { type CollectPayload, hostBelongsTo, pageHost } from './payload.js';
import { OpenSessions } from './sessions.js';
import { SiteCache } from './site-cache.js';

/** What became of a beacon: stored, or why it was dropped. */
export type CollectOutcome = 'accepted' | 'bot' | 'unknown_site' | 'foreign_host';

/** One beacon with the request facts the derivations need; `ip` is never stored. */
export interface Beacon {
  payload: CollectPayload;
  ip: string;
  userAgent: string;
}

export interface CollectorOptions {
  storage: Pick<Storage, 'getSite'>;
  saltStore: SaltStore;
  writer: Pick<BatchWriter, 'push'>;
  now: () => number;
}

/**
 * Turns beacons into stored events and queues them for writing. All awaiting (site, salt)
 * happens before the event's timestamp is taken; from there to the queue everything is
 * synchronous, so events reach the sessionizer in timestamp order.
 *
 * @example
 * const collector = new Collector({ storage, saltStore: createMemorySaltStore(), writer, now: Date.now });
 * await collector.collect({ payload, ip: '198.51.100.4', userAgent: req.headers['user-agent'] ?? '' });
 */
export class Collector {
  private readonly sites: SiteCache;
  private readonly sessions = new OpenSessions();
  private lastSeq = 0;

  constructor(private readonly options: CollectorOptions) {
    this.sites = new SiteCache(options.storage);
  }

  /** Open sessions remembered (bounded by the 30-minute rule). */
  get openSessions(): number {
    return this.sessions.size;
  }

  async collect({ payload, ip, userAgent }: Beacon): Promise<CollectOutcome> {
    if (isBotUserAgent(userAgent)) return 'bot';
    const site = await this.sites.get(payload.site_id, this.options.now());
    if (!site) return 'unknown_site';
    if (!hostBelongsTo(pageHost(payload.url), site.domain)) return 'foreign_host';

    // The salt is that of the event's local day; should the day turn while it is fetched, fetch again.
    let ts: number;
    let salt: string;
    for (;;) {
      const day = localDay(this.options.now(), site.timezone);
      salt = await this.options.saltStore.saltFor(day);
      ts = this.options.now();
      if (localDay(ts, site.timezone) === day) break;
    }

    const incoming: IncomingEvent = {
      ts,
      type: payload.type,
      name: payload.name,
      url: payload.url,
      referrer: payload.referrer,
      ip,
      user_agent: userAgent,
    };
    // Orders events with equal timestamps; the `ts * 1000` base keeps it rising across restarts.
    this.lastSeq = Math.max(this.lastSeq + 1, ts * 1000);
    const enriched = enrichEvent(site, incoming, () => salt, this.lastSeq);
    this.options.writer.push(this.sessions.stamp(enriched));
    return 'accepted';
  }
}
