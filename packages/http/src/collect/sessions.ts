/**
 * Sessions for events that arrive one at a time. The import sees a session's events in one
 * batch; the collector sees them over hours, so it remembers each visitor's open session:
 * its id, when it was last active, and what it took from its first event (entry page,
 * referrer, channel, UTM, country, device). Every later event is stamped with those through
 * the core's `stampEvent`, by the core's 30-minute rule (`continuesSession`).
 *
 * Anyone can send beacons, each from a new "visitor" (a new user agent is enough), so this
 * memory is capped: past the cap, the session idle the longest is closed early.
 */
import { continuesSession, type EnrichedEvent, newSessionId, type SessionFirstEvent, stampEvent, type StoredEvent } from '@siteline/core';

/**
 * Default cap of the open sessions' estimated memory: 64 MiB (about 80,000 sessions of typical
 * pages; the estimate is in `SESSION_OVERHEAD_BYTES`).
 * @example createCollectHandler({ storage, openSessionsBytes: 4 * DEFAULT_OPEN_SESSIONS_BYTES })
 */
export const DEFAULT_OPEN_SESSIONS_BYTES = 64 * 1024 * 1024;

/**
 * Estimated bytes of one open session besides its strings' characters: the map entry, the
 * two objects, the boxed timestamps and a string header each (measured with V8's heap
 * statistics in sessions.test.ts).
 */
const SESSION_OVERHEAD_BYTES = 600;

interface OpenSession {
  id: string;
  /** `ts` and `seq` of the first event: an event before it (a clock set back) is stamped as its own first. */
  firstTs: number;
  firstSeq: number;
  lastTs: number;
  /** A copy of the first event's session attributes only, not the event. */
  first: SessionFirstEvent;
  bytes: number;
}

/**
 * Open sessions of one collector process, one per visitor of a site, in order of last
 * activity. A session idle for more than 30 minutes is forgotten (exactly when the
 * 30-minute rule would start a new one anyway); when their estimated memory passes
 * `maxBytes`, the least recently active sessions are forgotten until it fits, and an event
 * of such a visitor later starts a new session.
 *
 * @example
 * const sessions = new OpenSessions({ maxBytes: 16 * 1024 * 1024 });
 * const stored = sessions.stamp(enrichEvent(site, incoming, salt, seq));
 */
export class OpenSessions {
  /** By `site\0visitor`; Map order is the order of last activity (an active session is moved to the end). */
  private readonly open = new Map<string, OpenSession>();
  /**
   * Walks `open` from the least recently active session; `head` is the entry it stands on.
   * Kept between calls: a fresh iterator would step over every entry deleted since V8 last
   * rebuilt the map (they stay in place until then), which makes forgetting one by one
   * quadratic. Every entry before the cursor has been deleted or moved to the end.
   */
  private cursor: Iterator<[string, OpenSession]> | undefined;
  private head: [string, OpenSession] | undefined;
  private readonly maxBytes: number;
  private bytes = 0;
  private evictedCount = 0;

  constructor(options: { maxBytes?: number } = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_OPEN_SESSIONS_BYTES;
  }

  /** Sessions remembered right now. */
  get size(): number {
    return this.open.size;
  }

  /** Estimated memory of the open sessions, in bytes. */
  get estimatedBytes(): number {
    return this.bytes;
  }

  /** Sessions forgotten before their 30 minutes because of the cap, since start. */
  get evicted(): number {
    return this.evictedCount;
  }

  /**
   * The event with its session id and its session's first-event attributes. Beacons carry
   * no session id: the session is the visitor's open one, or a new one.
   */
  stamp(event: EnrichedEvent): StoredEvent {
    this.prune(event.ts);
    const key = `${event.siteId}\u0000${event.visitorId}`;
    // The event is the caller's fresh copy: its session id is set in place, as the import does.
    const e = event as EnrichedEvent & { sessionId: string };
    const session = this.open.get(key);
    if (session && continuesSession(session.lastTs, e.ts)) {
      e.sessionId = session.id;
      session.lastTs = Math.max(session.lastTs, e.ts);
      if (this.head?.[0] === key) this.head = undefined;
      this.open.delete(key); // to the end: the most recently active
      this.open.set(key, session);
      const before = e.ts < session.firstTs || (e.ts === session.firstTs && e.seq < session.firstSeq);
      return stampEvent(e, before ? e : session.first);
    }
    if (session) this.forget(key, session);
    e.sessionId = newSessionId(e.siteId, e.visitorId, e.ts);
    const started: OpenSession = { id: e.sessionId, firstTs: e.ts, firstSeq: e.seq, lastTs: e.ts, first: firstEventOf(e), bytes: 0 };
    started.bytes = estimateBytes(key, started);
    this.open.set(key, started);
    this.bytes += started.bytes;
    for (let oldest = this.oldest(); this.bytes > this.maxBytes && oldest && oldest[1] !== started; oldest = this.oldest()) {
      this.forget(oldest[0], oldest[1]);
      this.evictedCount++;
    }
    return stampEvent(e, started.first);
  }

  /** Forgets sessions idle for more than 30 minutes at `now`: the least recently active come first, so this stops at the first one still open. */
  prune(now: number): void {
    for (let oldest = this.oldest(); oldest && !continuesSession(oldest[1].lastTs, now); oldest = this.oldest()) {
      this.forget(oldest[0], oldest[1]);
    }
  }

  /** The least recently active session. */
  private oldest(): [string, OpenSession] | undefined {
    if (this.head) return this.head;
    let next = this.cursor?.next();
    if (!next || next.done) {
      this.cursor = this.open.entries();
      next = this.cursor.next();
    }
    this.head = next.done ? undefined : next.value;
    return this.head;
  }

  private forget(key: string, session: OpenSession): void {
    if (this.head?.[0] === key) this.head = undefined;
    this.open.delete(key);
    this.bytes -= session.bytes;
  }
}

/** The session attributes of a first event, copied field by field so the event itself is not kept. */
function firstEventOf(e: SessionFirstEvent): SessionFirstEvent {
  return {
    path: e.path,
    referrerSource: e.referrerSource,
    channel: e.channel,
    utmSource: e.utmSource,
    utmMedium: e.utmMedium,
    utmCampaign: e.utmCampaign,
    countryCode: e.countryCode,
    deviceType: e.deviceType,
    browser: e.browser,
    os: e.os,
  };
}

/** Two bytes a character (V8 keeps non-Latin-1 strings in UTF-16) plus the fixed overhead. */
function estimateBytes(key: string, s: OpenSession): number {
  const f = s.first;
  const chars = key.length + s.id.length + f.path.length + f.referrerSource.length + f.channel.length + f.utmSource.length
    + f.utmMedium.length + f.utmCampaign.length + f.countryCode.length + f.deviceType.length + f.browser.length + f.os.length;
  return SESSION_OVERHEAD_BYTES + 2 * chars;
}
