/**
 * From a validated beacon to a stored event, through the core's one derivation path:
 * `enrichEvent` (path, campaign parameters, visitor id, referrer source, channel, device,
 * country), then the session by the 30-minute rule and the session's first-event attributes.
 *
 * Two halves: `screenBeacon` decides on the request thread whether a beacon is kept (bots,
 * unknown sites, foreign hosts are not), and `EventDeriver` turns a kept beacon into a stored
 * event. `Collector` runs both in this thread; `CollectThread` (collect-thread.ts) runs the
 * deriver and the writes on a worker thread.
 */
import { enrichEvent, type IncomingEvent, isBotUserAgent, localDay, type SaltStore, type Site, type Storage, type StoredEvent } from '@siteline/core';
import type { Logger } from '../log.js';
import type { BatchWriter } from './batch-writer.js';
import { OutageLog } from './outage-log.js';
import { type CollectPayload, hostBelongsTo } from './payload.js';
import { OpenSessions } from './sessions.js';
import type { SiteCache } from './site-cache.js';

/**
 * What became of a beacon: stored (durable: committed, or in the spool), dropped and why, or
 * `unavailable`: storage could not keep it now (a full disk, ClickHouse away with a full spool,
 * its site or salt unreadable), answered 503.
 */
export type CollectOutcome = 'accepted' | 'bot' | 'unknown_site' | 'foreign_host' | 'unavailable';

/** One beacon with the request facts the derivations need; `ip` is never stored. */
export interface Beacon {
  payload: CollectPayload;
  /** The page's host, as `parseCollectBody` read it. */
  host: string;
  ip: string;
  userAgent: string;
}

/**
 * What every collector does with a beacon: keep it durably (`collect` resolves `accepted` only
 * then) or say why not.
 */
export interface BeaconSink {
  collect(beacon: Beacon): Promise<CollectOutcome>;
  /** Too much is waiting for storage: the handler answers 503 instead of accepting more. */
  readonly full: boolean;
  /** Resolves once events can be written (rejects with the reason if they never can). */
  ready(): Promise<void>;
  /** Writes every accepted event now (through the spool: into ClickHouse). */
  flush(): Promise<void>;
  /** Writes every accepted event it can, then stops (no `collect` after this). */
  close(): Promise<void>;
}

/**
 * The beacon's site when it is to be kept, or the reason it is dropped; `unavailable` when its
 * site cannot be looked up (storage away, the site not seen before: `SiteCache` answers from
 * what it has seen).
 */
export async function screenBeacon(beacon: Beacon, sites: SiteCache, now: number): Promise<Site | Exclude<CollectOutcome, 'accepted'>> {
  if (isBotUserAgent(beacon.userAgent)) return 'bot';
  let site: Site | undefined;
  try {
    site = await sites.get(beacon.payload.site_id, now);
  } catch {
    return 'unavailable'; // logged once per outage by the cache
  }
  if (!site) return 'unknown_site';
  if (!hostBelongsTo(beacon.host, site.domain)) return 'foreign_host';
  return site;
}

/** The site fields the derivations read. */
export type SiteFacts = Pick<Site, 'id' | 'timezone' | 'domain'>;

/**
 * Kept beacons to stored events, one at a time and in timestamp order: derivations, then
 * the session (open sessions are remembered here, bounded by the 30-minute rule and by
 * `openSessionsBytes`, see `OpenSessions`).
 */
export class EventDeriver {
  private readonly sessions: OpenSessions;
  private lastSeq = 0;

  constructor(options: { openSessionsBytes?: number } = {}) {
    this.sessions = new OpenSessions({ maxBytes: options.openSessionsBytes });
  }

  /** Open sessions remembered. */
  get openSessions(): number {
    return this.sessions.size;
  }

  derive(site: SiteFacts, beacon: Omit<Beacon, 'host'>, ts: number, salt: string): StoredEvent {
    const { payload } = beacon;
    const incoming: IncomingEvent = {
      ts,
      type: payload.type,
      name: payload.name,
      url: payload.url,
      referrer: payload.referrer,
      ip: beacon.ip,
      user_agent: beacon.userAgent,
      props: payload.props,
    };
    // Orders events with equal timestamps; the `ts * 1000` base keeps it rising across restarts.
    this.lastSeq = Math.max(this.lastSeq + 1, ts * 1000);
    return this.sessions.stamp(enrichEvent(site as Site, incoming, () => salt, this.lastSeq));
  }
}

export interface CollectorOptions {
  sites: SiteCache;
  saltStore: SaltStore;
  writer: BatchWriter;
  now: () => number;
  logger: Logger;
  /** Cap of the open sessions' estimated memory (`OpenSessions`). */
  openSessionsBytes?: number;
}

/**
 * Everything in this thread: screens beacons, derives their events and hands them to the
 * batch writer (group commit), answering `accepted` once the write holding the event has
 * committed. All awaiting (site, salt) happens before the event's timestamp is taken; from
 * there to the queue everything is synchronous, so events reach the sessionizer in timestamp
 * order.
 *
 * @example
 * const collector = new Collector({ sites: new SiteCache(storage), saltStore, writer, now: Date.now, logger });
 * await collector.collect({ payload, ip: '198.51.100.4', userAgent: req.headers['user-agent'] ?? '' });
 */
export class Collector implements BeaconSink {
  private readonly deriver: EventDeriver;
  private readonly saltOutage: OutageLog;

  constructor(private readonly options: CollectorOptions) {
    this.deriver = new EventDeriver({ openSessionsBytes: options.openSessionsBytes });
    this.saltOutage = new OutageLog(options.logger, { down: 'collect: the day\'s salt cannot be read; beacons answered 503', up: 'collect: salts read again' });
  }

  /** Open sessions remembered (bounded by the 30-minute rule). */
  get openSessions(): number {
    return this.deriver.openSessions;
  }

  get full(): boolean {
    return this.options.writer.full;
  }

  /** Writes go through `storage.writeEvents`, ready from the start. */
  ready(): Promise<void> {
    return Promise.resolve();
  }

  async collect(beacon: Beacon): Promise<CollectOutcome> {
    const site = await screenBeacon(beacon, this.options.sites, this.options.now());
    if (typeof site === 'string') return site;
    // The salt is that of the event's local day; should the day turn while it is fetched, fetch again.
    let ts: number;
    let salt: string;
    try {
      for (;;) {
        const day = localDay(this.options.now(), site.timezone);
        salt = await this.options.saltStore.saltFor(day);
        ts = this.options.now();
        if (localDay(ts, site.timezone) === day) break;
      }
      this.saltOutage.recovered();
    } catch (error) {
      this.saltOutage.failed(error);
      return 'unavailable';
    }
    const kept = await this.options.writer.write([this.deriver.derive(site, beacon, ts, salt)]);
    return kept ? 'accepted' : 'unavailable';
  }

  flush(): Promise<void> {
    return this.options.writer.flush();
  }

  close(): Promise<void> {
    return this.options.writer.close();
  }
}
