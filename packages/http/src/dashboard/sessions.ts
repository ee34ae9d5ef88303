/**
 * Dashboard sessions: what a browser holds instead of the key. The key is read once, at
 * sign-in; the browser then carries only a random session id in an HttpOnly cookie, and the
 * server keeps the principal the key stood for, in this process's memory.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '../auth.js';

export interface SessionOptions {
  /** A session not used for this long ends; default 30 minutes. */
  idleMs?: number;
  /** A session ends this long after sign-in however much it is used; default 12 hours. */
  maxAgeMs?: number;
  /** Sessions kept at most; signing in beyond it ends the least recently used one. Default 10,000. */
  maxSessions?: number;
}

export const SESSION_DEFAULTS = { idleMs: 30 * 60_000, maxAgeMs: 12 * 3_600_000, maxSessions: 10_000 } as const;

/** Random bytes of a session id: 256 bits from the CSPRNG. */
const ID_BYTES = 32;
/** A session id as the cookie carries it: base64url of `ID_BYTES` bytes. */
const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

interface Session {
  principal: Principal;
  createdAt: number;
  lastSeenAt: number;
}

/**
 * Sessions in memory, bounded. The map is keyed by the SHA-256 of the id, so a heap dump
 * holds no usable cookie. Map order is least recently used first (a use moves a session to
 * the end), which makes both eviction and the expiry sweep cheap.
 *
 * @example
 * const sessions = new SessionStore({ idleMs: 30 * 60_000 });
 * const id = sessions.create(principal, Date.now()); // goes into the cookie
 * sessions.get(id, Date.now())?.keyId;
 */
export class SessionStore {
  readonly idleMs: number;
  readonly maxAgeMs: number;
  readonly maxSessions: number;
  private readonly sessions = new Map<string, Session>();

  constructor(options: SessionOptions = {}) {
    this.idleMs = options.idleMs ?? SESSION_DEFAULTS.idleMs;
    this.maxAgeMs = options.maxAgeMs ?? SESSION_DEFAULTS.maxAgeMs;
    this.maxSessions = options.maxSessions ?? SESSION_DEFAULTS.maxSessions;
    if (!(this.idleMs > 0 && this.maxAgeMs > 0 && this.maxSessions >= 1)) throw new Error('Session limits must be positive.');
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Starts a session for `principal`; returns the id for the cookie (never stored as such). */
  create(principal: Principal, now: number): string {
    this.sweep(now);
    while (this.sessions.size >= this.maxSessions) this.sessions.delete(this.sessions.keys().next().value!);
    const id = randomBytes(ID_BYTES).toString('base64url');
    this.sessions.set(digest(id), { principal, createdAt: now, lastSeenAt: now });
    return id;
  }

  /** The principal of a live session, marking it used; `undefined` for unknown, malformed or expired ids. */
  get(id: string | undefined, now: number): Principal | undefined {
    if (id === undefined || !ID_PATTERN.test(id)) return undefined;
    const key = digest(id);
    const session = this.sessions.get(key);
    if (!session) return undefined;
    this.sessions.delete(key);
    if (this.expired(session, now)) return undefined;
    session.lastSeenAt = now;
    this.sessions.set(key, session);
    return session.principal;
  }

  /** Ends a session (sign-out, a revoked key). */
  delete(id: string | undefined): void {
    if (id !== undefined && ID_PATTERN.test(id)) this.sessions.delete(digest(id));
  }

  private expired(session: Session, now: number): boolean {
    return now - session.lastSeenAt >= this.idleMs || now - session.createdAt >= this.maxAgeMs;
  }

  /** Drops idle sessions from the least recently used end (a session past its maximum age goes at its next use). */
  private sweep(now: number): void {
    for (const [key, session] of this.sessions) {
      if (now - session.lastSeenAt < this.idleMs) break;
      this.sessions.delete(key);
    }
  }
}

const digest = (id: string) => createHash('sha256').update(id).digest('base64url');
