/**
 * The rules of users, one-time links and web sessions, written once over a `PeopleStore`
 * (SQLite here, ClickHouse in its package). Secrets (link tokens, session ids) are random
 * 256-bit values given to the caller once; stores keep only their SHA-256.
 */
import { hashesEqual } from '../accounts/keys.js';
import { newUserId } from '../accounts/rules.js';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import { newToken as token, tokenHash as sha256 } from './tokens.js';
import { type PeopleStore, type Role, ROLES, type UserRow, type WebSessionRow } from './types.js';

/** A set-password link is valid this long, once. */
export const LINK_TTL_MS = 24 * 3_600_000;

/** Session lifetimes: idle expiry, absolute expiry, and how often a use is written (the idle clock's resolution). */
export const SESSION_LIMITS = { idleMs: 30 * 60_000, maxAgeMs: 12 * 3_600_000, touchMs: 60_000 } as const;

/** A two-factor code's time step (RFC 6238's X, 30 s); stores keep accepted steps as `floor(ms / TOTP_STEP_MS)`. */
export const TOTP_STEP_MS = 30_000;

/**
 * How long sign-in attempts and accepted two-factor steps are kept: past the throttle's
 * memory (15 minutes) and a code's validity (90 s), so removing them changes no answer.
 */
export const ATTEMPTS_KEPT_MS = 3_600_000;

/** How often a server removes what can no longer be used (`People.removeExpired`). */
export const CLEANUP_INTERVAL_MS = 3_600_000;

/** Longest email accepted (RFC 5321's path limit). */
export const MAX_EMAIL_LENGTH = 254;
const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;
/** Session ids and link tokens as they travel: base64url of 32 random bytes. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A rule of people was broken; the message says what to do. */
export class PeopleError extends Error {
  override readonly name = 'PeopleError';
}

export interface PeopleOptions {
  /** Clock, for tests; default `Date.now`. */
  now?: () => number;
  /** Idle and absolute session expiry in ms (`SESSION_LIMITS`). */
  idleMs?: number;
  maxAgeMs?: number;
}

/** What a session stands for: a user (by password) or an API key. */
export type SessionSubject = { userId: string; accountId: string } | { keyId: string; accountId: string };

/**
 * The email as stored and compared: trimmed and lower-cased, or an error.
 * @example normalEmail(' Ann@Example.COM ') // 'ann@example.com'
 */
export function normalEmail(email: string): string {
  const normal = email.trim().toLowerCase();
  if (normal.length > MAX_EMAIL_LENGTH || !EMAIL.test(normal)) throw new PeopleError('An email address looks like name@example.com.');
  return normal;
}

/**
 * Users, links and sessions of one backend.
 *
 * @example
 * const people = new People(backend.people);
 * const { user, link } = await people.addUser(account.id, 'owner@acme.test', 'owner');
 * // the owner opens …/dashboard/set-password?token=<link>
 */
export class People {
  readonly idleMs: number;
  readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(readonly store: PeopleStore, options: PeopleOptions = {}) {
    this.now = options.now ?? Date.now;
    this.idleMs = options.idleMs ?? SESSION_LIMITS.idleMs;
    this.maxAgeMs = options.maxAgeMs ?? SESSION_LIMITS.maxAgeMs;
  }

  /** Adds a user without a password; returns the token of their one-time set-password link. */
  async addUser(accountId: string, email: string, role: Role): Promise<{ user: UserRow; link: string }> {
    if (!ROLES.includes(role)) throw new PeopleError('A role is owner or viewer.');
    const normal = normalEmail(email);
    if (await this.store.userByEmail(normal)) throw new PeopleError(`There is already a user ${normal}.`);
    const user: UserRow = {
      id: newUserId(), account_id: accountId, email: normal, role, password_hash: '', totp_secret: '', recovery_hashes: [],
      sessions_after_ms: 0, created_at: new Date(this.now()).toISOString(), removed: false,
    };
    await this.store.saveUser(user);
    return { user, link: await this.newLink(user.id) };
  }

  /** A new one-time link for the user (valid `LINK_TTL_MS`); earlier links stay valid until used or expired. */
  async newLink(userId: string): Promise<string> {
    const secret = token();
    await this.store.saveLink({ token_hash: sha256(secret), user_id: userId, expires_ms: this.now() + LINK_TTL_MS });
    return secret;
  }

  /**
   * Sets the password of the link's user and uses the link up; ends the user's sessions.
   * The password is checked first, so a refused one does not spend the link.
   */
  async setPasswordWithLink(secret: string, password: string): Promise<UserRow> {
    const problem = await passwordProblem(password);
    if (problem) throw new PeopleError(problem);
    const refused = new PeopleError('This link is not valid: it was used already, has expired, or was mistyped. Ask an owner (or the operator) for a new one.');
    if (!TOKEN_PATTERN.test(secret)) throw refused;
    const link = await this.store.useLink(sha256(secret), this.now());
    const user = link && link.expires_ms > this.now() ? await this.store.userById(link.user_id) : undefined;
    if (!user || user.removed) throw refused;
    return this.replacePassword(user, password);
  }

  /** The user whose email and password these are (and who has a password), else undefined; one scrypt either way. */
  async checkPassword(email: string, password: string): Promise<UserRow | undefined> {
    let user: UserRow | undefined;
    try {
      user = await this.store.userByEmail(normalEmail(email));
    } catch {
      user = undefined;
    }
    const ok = await verifyPassword(password, user?.password_hash ?? '');
    return ok && user && !user.removed ? user : undefined;
  }

  /** Changes a signed-in user's password after checking the current one; every session of the user ends. */
  async changePassword(user: UserRow, current: string, next: string): Promise<UserRow> {
    if (!(await verifyPassword(current, user.password_hash))) throw new PeopleError('The current password is not right.');
    const problem = await passwordProblem(next);
    if (problem) throw new PeopleError(problem);
    return this.replacePassword(user, next);
  }

  private async replacePassword(user: UserRow, password: string): Promise<UserRow> {
    const updated = { ...user, password_hash: await hashPassword(password), sessions_after_ms: this.now() };
    await this.store.saveUser(updated);
    return updated;
  }

  /** The account's users, by email. */
  async usersOf(accountId: string): Promise<UserRow[]> {
    return (await this.store.usersOf(accountId)).sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
  }

  /** A user of the account, or an error. */
  async userOf(accountId: string, userId: string): Promise<UserRow> {
    const user = await this.store.userById(userId);
    if (!user || user.removed || user.account_id !== accountId) throw new PeopleError('There is no such user in this account.');
    return user;
  }

  /** Changes a user's role; the account keeps at least one owner. */
  async setRole(accountId: string, userId: string, role: Role): Promise<UserRow> {
    if (!ROLES.includes(role)) throw new PeopleError('A role is owner or viewer.');
    const user = await this.userOf(accountId, userId);
    if (user.role === 'owner' && role !== 'owner') await this.keepAnOwner(accountId);
    const updated = { ...user, role };
    await this.store.saveUser(updated);
    return updated;
  }

  /** Removes a user (their sessions end at their next request); the account keeps at least one owner. */
  async removeUser(accountId: string, userId: string): Promise<void> {
    const user = await this.userOf(accountId, userId);
    if (user.role === 'owner') await this.keepAnOwner(accountId);
    await this.store.saveUser({ ...user, removed: true, sessions_after_ms: this.now() });
  }

  private async keepAnOwner(accountId: string): Promise<void> {
    const owners = (await this.store.usersOf(accountId)).filter((u) => u.role === 'owner');
    if (owners.length <= 1) throw new PeopleError('An account keeps at least one owner: make someone else owner first.');
  }

  /** Starts a session; returns the id for the cookie (stored only as its hash) and the row. */
  async startSession(subject: SessionSubject): Promise<{ id: string; session: WebSessionRow }> {
    const id = token();
    const now = this.now();
    const session: WebSessionRow = {
      id_hash: sha256(id), user_id: 'userId' in subject ? subject.userId : '', key_id: 'keyId' in subject ? subject.keyId : '',
      account_id: subject.accountId, csrf: token(), created_ms: now, last_seen_ms: now, ended: false,
    };
    await this.store.saveSession(session);
    return { id, session };
  }

  /**
   * The live session with this id and, for a password session, its user; marks it used
   * (written at most once a minute). Undefined for malformed, unknown, ended or expired ids,
   * a removed user, or a session older than the user's last password change.
   */
  async session(id: string | undefined): Promise<{ session: WebSessionRow; user?: UserRow } | undefined> {
    if (id === undefined || !TOKEN_PATTERN.test(id)) return undefined;
    const session = await this.store.session(sha256(id));
    const now = this.now();
    if (!session || session.ended || now - session.last_seen_ms >= this.idleMs || now - session.created_ms >= this.maxAgeMs) return undefined;
    let user: UserRow | undefined;
    if (session.user_id !== '') {
      user = await this.store.userById(session.user_id);
      if (!user || user.removed || session.created_ms < user.sessions_after_ms) return undefined;
    }
    if (now - session.last_seen_ms >= SESSION_LIMITS.touchMs) await this.store.saveSession({ ...session, last_seen_ms: now });
    return user ? { session, user } : { session };
  }

  /**
   * Deletes what can no longer be used: sessions ended, idle or past their absolute expiry;
   * links used or expired; attempts and two-factor steps older than `ATTEMPTS_KEPT_MS`.
   * Resolves once they are gone. Servers run it every `CLEANUP_INTERVAL_MS`.
   * @example setInterval(() => void people.removeExpired(), CLEANUP_INTERVAL_MS).unref();
   */
  async removeExpired(): Promise<void> {
    const now = this.now();
    await this.store.removeExpired({
      sessionsCreatedBefore: now - this.maxAgeMs, sessionsSeenBefore: now - this.idleMs, linksExpiredBy: now, attemptsBefore: now - ATTEMPTS_KEPT_MS,
    });
  }

  /** Ends a session (sign-out; a revoked key). */
  async endSession(id: string | undefined): Promise<void> {
    if (id === undefined || !TOKEN_PATTERN.test(id)) return;
    const session = await this.store.session(sha256(id));
    if (session && !session.ended) await this.store.saveSession({ ...session, ended: true });
  }
}

/**
 * Whether a posted CSRF token is the session's (constant-time).
 * @example csrfMatches(session, form.get('csrf'))
 */
export function csrfMatches(session: WebSessionRow, posted: string | null | undefined): boolean {
  // Bytes, not characters, are compared: a token of as many characters with a wider one is refused, not thrown on.
  return typeof posted === 'string' && hashesEqual(Buffer.from(posted), Buffer.from(session.csrf));
}
