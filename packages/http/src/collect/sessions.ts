/**
 * Sessions for events that arrive one at a time. The core's `stampSessions` gives the events
 * of a batch their session's first-event attributes; the collector sees a session's events
 * over many batches, so it remembers each open session's first event and stamps every
 * later event against it, through the same `Sessionizer` and `stampSessions` the import uses.
 */
import { type EnrichedEvent, SESSION_GAP_MS, Sessionizer, stampSessions, type StoredEvent } from '@siteline/core';

type SessionEvent = EnrichedEvent & { sessionId: string };

/** How often idle sessions are forgotten; pruning walks every open session. */
const PRUNE_EVERY_MS = 60_000;

/**
 * Open sessions of one collector process, bounded by the 30-minute rule: a session idle
 * for longer is forgotten, exactly when the `Sessionizer` would start a new one anyway.
 *
 * @example
 * const sessions = new OpenSessions();
 * const stored = sessions.stamp(enrichEvent(site, incoming, salt, seq));
 */
export class OpenSessions {
  private readonly sessionizer = new Sessionizer();
  private readonly open = new Map<string, { first: SessionEvent; lastTs: number }>();
  private lastPrune = -Infinity;

  /** Sessions remembered right now. */
  get size(): number {
    return this.open.size;
  }

  /**
   * The event with its session id and its session's first-event attributes. Sets
   * `event.sessionId` in place (as the import does): the event is the caller's fresh copy.
   */
  stamp(event: EnrichedEvent): StoredEvent {
    this.prune(event.ts);
    event.sessionId ??= this.sessionizer.assign(event.siteId, event.visitorId, event.ts);
    const e = event as SessionEvent;
    const key = `${e.siteId}\u0000${e.sessionId}`;
    const session = this.open.get(key);
    if (!session) {
      this.open.set(key, { first: e, lastTs: e.ts });
      return stampSessions([e])[0]!;
    }
    session.lastTs = Math.max(session.lastTs, e.ts);
    return stampSessions([session.first, e])[1]!;
  }

  /** Forgets sessions idle for more than 30 minutes at `now` (at most once a minute). */
  prune(now: number): void {
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    this.sessionizer.prune(now);
    for (const [key, session] of this.open) if (now - session.lastTs > SESSION_GAP_MS) this.open.delete(key);
  }
}
