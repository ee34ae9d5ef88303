import { hash } from 'node:crypto';
import type { StoredEvent } from '../storage/types.js';
import type { EnrichedEvent } from './enrich.js';

/** A session ends after more than 30 minutes without an event (decisions.md section 2). */
export const SESSION_GAP_MS = 30 * 60_000;

/**
 * Assigns sessions by the 30-minute rule to events without a session id.
 * Stateful so the collector can feed events one by one; an import uses a
 * fresh instance and feeds its events in time order.
 */
export class Sessionizer {
  private readonly open = new Map<string, { id: string; lastTs: number }>();

  /** The session of an event of `visitorId` at `ts` (events must come in time order per visitor). */
  assign(siteId: string, visitorId: string, ts: number): string {
    const key = `${siteId}\u0000${visitorId}`;
    const current = this.open.get(key);
    if (current && continuesSession(current.lastTs, ts)) {
      current.lastTs = Math.max(current.lastTs, ts);
      return current.id;
    }
    const id = newSessionId(siteId, visitorId, ts);
    this.open.set(key, { id, lastTs: ts });
    return id;
  }

  /** Forgets sessions idle for more than 30 minutes at `now` (keeps memory bounded). */
  prune(now: number): void {
    for (const [key, session] of this.open) if (now - session.lastTs > SESSION_GAP_MS) this.open.delete(key);
  }
}

/**
 * Whether an event at `ts` continues a session whose last event was at `lastTs` (the 30-minute rule).
 * @example continuesSession(0, 30 * 60_000) // true
 */
export function continuesSession(lastTs: number, ts: number): boolean {
  return ts - lastTs <= SESSION_GAP_MS;
}

/**
 * Deterministic id of a derived session: time-ordered prefix (index locality) and a hash.
 * @example newSessionId('ST-blog', visitorId, Date.parse('2026-11-02T10:00:00Z')) // 'mh...-Xy...'
 */
export function newSessionId(siteId: string, visitorId: string, firstTs: number): string {
  const digest = hash('sha256', `${siteId}\u0000${visitorId}\u0000${firstTs}`, 'base64url');
  return `${firstTs.toString(36)}-${digest.slice(0, 12)}`;
}

/**
 * Gives every event of a session the attributes of the session's first event
 * (by time, then `seq`), as decisions.md section 2 defines them.
 */
export function stampSessions(events: (EnrichedEvent & { sessionId: string })[]): StoredEvent[] {
  const first = new Map<string, EnrichedEvent & { sessionId: string }>();
  for (const e of events) {
    const key = `${e.siteId}\u0000${e.sessionId}`;
    const f = first.get(key);
    if (!f || e.ts < f.ts || (e.ts === f.ts && e.seq < f.seq)) first.set(key, e);
  }
  return events.map((e) => stampEvent(e, first.get(`${e.siteId}\u0000${e.sessionId}`)!));
}

/** What a session takes from its first event (decisions.md section 2), under the event's own field names. */
export type SessionFirstEvent = Pick<EnrichedEvent, 'path' | 'referrerSource' | 'channel' | 'utmSource' | 'utmMedium' | 'utmCampaign' | 'countryCode' | 'deviceType' | 'browser' | 'os'>;

/**
 * One event as stored: its own fields, and its session's attributes from `f`, the session's
 * first event (or what was kept of it, as the collector keeps for open sessions).
 * @example const stored = stampEvent(event, firstEventOfItsSession);
 */
export function stampEvent(e: EnrichedEvent & { sessionId: string }, f: SessionFirstEvent): StoredEvent {
  // Written out field by field: an object spread here costs microseconds per event.
  const stored: StoredEvent = {
    siteId: e.siteId,
    ts: e.ts,
    day: e.day,
    type: e.type,
    name: e.name,
    path: e.path,
    visitorId: e.visitorId,
    sessionId: e.sessionId,
    seq: e.seq,
    entryPath: f.path,
    referrerSource: f.referrerSource,
    channel: f.channel,
    utmSource: f.utmSource,
    utmMedium: f.utmMedium,
    utmCampaign: f.utmCampaign,
    countryCode: f.countryCode,
    deviceType: f.deviceType,
    browser: f.browser,
    os: f.os,
  };
  if (e.props !== undefined && e.props.length > 0) stored.props = e.props;
  return stored;
}

/** What `stampInOrder` counted while it ran. */
export interface OrderedCounts {
  /** Sessions (each counted at its first event). */
  sessions: number;
}

/**
 * Sessions and session attributes for events read in time order (by `(ts, seq)`), the same
 * as `assignSessions` and `stampSessions` give them all at once, holding only the sessions
 * active in the last 30 minutes of event time. A session the lines name (`session_id`) may
 * pause for longer: when it comes back, `firstOf` finds its first event again (a staged
 * import looks it up in its file).
 */
export function* stampInOrder(events: Iterable<EnrichedEvent>, firstOf: (siteId: string, sessionId: string) => SessionFirstEvent & { ts: number; seq: number }, counts: OrderedCounts): Generator<StoredEvent> {
  const sessionizer = new Sessionizer();
  const open = new Map<string, { first: SessionFirstEvent; lastTs: number }>();
  let pruneAfter = -Infinity;
  for (const e of events) {
    // Once a minute of event time, forget the sessions that can no longer continue (the rule of `Sessionizer.prune`).
    if (e.ts > pruneAfter) {
      sessionizer.prune(e.ts);
      for (const [key, session] of open) if (e.ts - session.lastTs > SESSION_GAP_MS) open.delete(key);
      pruneAfter = e.ts + 60_000;
    }
    const given = e.sessionId !== undefined;
    const sessionId = (e.sessionId ??= sessionizer.assign(e.siteId, e.visitorId, e.ts));
    const key = `${e.siteId}\u0000${sessionId}`;
    let session = open.get(key);
    if (!session) {
      const first = given ? firstOf(e.siteId, sessionId) : e;
      if (first.ts === e.ts && first.seq === e.seq) counts.sessions++;
      open.set(key, (session = { first, lastTs: e.ts }));
    }
    session.lastTs = e.ts;
    yield stampEvent(e as EnrichedEvent & { sessionId: string }, session.first);
  }
}
