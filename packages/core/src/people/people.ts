/**
 * The rules of users, one-time links and web sessions, written once over a `PeopleStore`
 * (SQLite here, ClickHouse in its package). Secrets (link tokens, session ids) are random
 * 256-bit values given to the caller once; stores keep only their SHA-256.
 */
import { newUserId } from '../accounts/rules.js';
import { hashPassword, passwordProblem, verifyPasswords } from './passwords.js';
import { newToken as token, tokenHash as sha256 } from './tokens.js';
import { ATTEMPTS_KEPT_MS, LINK_TTL_MS, normalEmail, PeopleError, SESSION_LIMITS, TOKEN_PATTERN } from './rules.js';
import { COMMUNITY_ACCOUNT, type PeopleStore, type Role, ROLES, type UserChange, type UserRow, type WebSessionRow } from './types.js';

export interface PeopleOptions {
  /** Clock, for tests; default `Date.now`. */
  now?: () => number;
  /** Idle and absolute session expiry in ms (`SESSION_LIMITS`). */
  idleMs?: number;
  maxAgeMs?: number;
}

/**
 * What a session stands for: a user (by password: the row as the sign-in read it, before
 * checking the password, whose epoch the session keeps) or an API key.
 */
export type SessionSubject = { user: UserRow } | { keyId: string; accountId: string };

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
  /** Password hashes (scrypt derivations) this instance has computed to check passwords: what a guess costs, for tests and figures. */
  hashChecks = 0;
  private readonly now: () => number;

  constructor(readonly store: PeopleStore, options: PeopleOptions = {}) {
    this.now = options.now ?? Date.now;
    this.idleMs = options.idleMs ?? SESSION_LIMITS.idleMs;
    this.maxAgeMs = options.maxAgeMs ?? SESSION_LIMITS.maxAgeMs;
  }

  /**
   * Adds a user without a password; returns the token of their one-time set-password link.
   * An email is unique within an account; other accounts may have users with it, and
   * nothing here tells whether they do.
   */
  async addUser(accountId: string, email: string, role: Role): Promise<{ user: UserRow; link: string }> {
    if (!ROLES.includes(role)) throw new PeopleError('A role is owner or viewer.');
    const normal = normalEmail(email);
    const user: UserRow = {
      id: newUserId(), account_id: accountId, email: normal, role, password_hash: '', totp_secret: '', recovery_hashes: [],
      sessions_after_ms: 0, created_at: new Date(this.now()).toISOString(), removed: false,
    };
    if (!(await this.store.addUser(user))) throw new PeopleError(`There is already a user ${normal}${accountId === COMMUNITY_ACCOUNT ? '' : ' in this account'}.`);
    return { user, link: await this.newLink(user.id) };
  }

  /** A new one-time link for the user (valid `LINK_TTL_MS`); earlier links stay valid until used, expired, or a password is set. */
  async newLink(userId: string): Promise<string> {
    const secret = token();
    await this.store.saveLink({ token_hash: sha256(secret), user_id: userId, expires_ms: this.now() + LINK_TTL_MS });
    return secret;
  }

  /**
   * Sets the password of the link's user and uses the link up; ends the user's sessions and
   * their other links. The password is checked first, so a refused one does not spend the link.
   */
  async setPasswordWithLink(secret: string, password: string): Promise<UserRow> {
    const problem = await passwordProblem(password);
    if (problem) throw new PeopleError(problem);
    const refused = new PeopleError('This link is not valid: it was used already, has expired, or was mistyped. Ask an owner (or the operator) for a new one.');
    if (!TOKEN_PATTERN.test(secret)) throw refused;
    const link = await this.store.useLink(sha256(secret), this.now());
    const user = link && link.expires_ms > this.now() ? await this.store.userById(link.user_id) : undefined;
    if (!user || user.removed || !(await this.replacePassword(user, password))) throw refused;
    return (await this.store.userById(user.id))!;
  }

  /**
   * The users of this email (those `accept` admits: the edition's) whose password this is.
   * One scrypt however many accounts the email has users in (their hashes share a salt),
   * one against a decoy when it has none, so neither the time nor the answer tells a caller
   * without the password anything about other accounts. Several: the person chooses.
   */
  async usersWithPassword(email: string, password: string, accept: (user: UserRow) => boolean = () => true): Promise<UserRow[]> {
    let users: UserRow[];
    try {
      users = (await this.store.usersByEmail(normalEmail(email))).filter(accept);
    } catch (error) {
      if (!(error instanceof PeopleError)) throw error;
      users = [];
    }
    const { matches, derivations } = await verifyPasswords(password, users.map((u) => u.password_hash));
    this.hashChecks += derivations;
    return users.filter((_, i) => matches[i]);
  }

  /** Whether `password` is the user's current one (one scrypt). */
  isPassword(user: UserRow, password: string): Promise<boolean> {
    return this.matchesHash(password, user.password_hash);
  }

  /**
   * Whether `password` matches a stored password hash (a user's, or a shared link's): one
   * scrypt, counted in `hashChecks`; an empty hash is checked against a decoy and never matches.
   */
  async matchesHash(password: string, stored: string): Promise<boolean> {
    const { matches, derivations } = await verifyPasswords(password, [stored]);
    this.hashChecks += derivations;
    return matches[0]!;
  }

  /** Changes a signed-in user's password after checking the current one; every session and link of the user ends. */
  async changePassword(user: UserRow, current: string, next: string): Promise<void> {
    if (!(await this.isPassword(user, current))) throw new PeopleError('The current password is not right.');
    await this.setPassword(user, next);
  }

  /** Sets a user's password (the caller checked the current one); every session and link of the user ends. */
  async setPassword(user: UserRow, next: string): Promise<void> {
    const problem = await passwordProblem(next);
    if (problem) throw new PeopleError(problem);
    if (!(await this.replacePassword(user, next))) throw new PeopleError('There is no such user in this account.');
  }

  /** Writes the new hash alone (salted as the email's other users are), then ends the user's other links. */
  private async replacePassword(user: UserRow, password: string): Promise<boolean> {
    const sharing = (await this.store.usersByEmail(user.email)).find((u) => u.id !== user.id && u.password_hash !== '')?.password_hash;
    const changed = await this.store.changeUser(user.id, { kind: 'password', password_hash: await hashPassword(password, sharing) }, this.now());
    if (changed) await this.store.endLinks(user.id, this.now());
    return changed;
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

  /** Changes a user's role; the account keeps at least one owner (checked in the same step as the change). */
  async setRole(accountId: string, userId: string, role: Role): Promise<void> {
    if (!ROLES.includes(role)) throw new PeopleError('A role is owner or viewer.');
    await this.change(accountId, userId, { kind: 'role', role });
  }

  /** Removes a user (their sessions end at their next request); the account keeps at least one owner. */
  async removeUser(accountId: string, userId: string): Promise<void> {
    await this.change(accountId, userId, { kind: 'removed' });
  }

  /** Turns two-factor on with this secret and recovery codes' hashes, or off (`''`, `[]`), for a user who is not removed. */
  async setTwoFactor(user: UserRow, secret: string, recoveryHashes: string[]): Promise<void> {
    await this.change(user.account_id, user.id, { kind: 'two-factor', totp_secret: secret, recovery_hashes: recoveryHashes });
  }

  private async change(accountId: string, userId: string, change: UserChange): Promise<void> {
    await this.userOf(accountId, userId);
    if (await this.store.changeUser(userId, change, this.now())) return;
    await this.userOf(accountId, userId); // removed meanwhile: say so
    throw new PeopleError('An account keeps at least one owner: make someone else owner first.');
  }

  /** Starts a session; returns the id for the cookie (stored only as its hash) and the row. */
  async startSession(subject: SessionSubject): Promise<{ id: string; session: WebSessionRow }> {
    const id = token();
    const now = this.now();
    const user = 'user' in subject ? subject.user : undefined;
    const session: WebSessionRow = {
      id_hash: sha256(id), user_id: user?.id ?? '', key_id: 'keyId' in subject ? subject.keyId : '',
      account_id: user?.account_id ?? ('accountId' in subject ? subject.accountId : ''), csrf: token(), created_ms: now, last_seen_ms: now, ended: false,
      user_epoch: user?.sessions_after_ms ?? 0,
    };
    await this.store.saveSession(session);
    return { id, session };
  }

  /**
   * The live session with this id and, for a password session, its user; marks it used
   * (written at most once a minute). Undefined for malformed, unknown, ended or expired ids,
   * a removed user, or a session whose sign-in read the user before a password change (its
   * epoch is below the user's).
   */
  async session(id: string | undefined): Promise<{ session: WebSessionRow; user?: UserRow } | undefined> {
    if (id === undefined || !TOKEN_PATTERN.test(id)) return undefined;
    const session = await this.store.session(sha256(id));
    const now = this.now();
    if (!session || session.ended || now - session.last_seen_ms >= this.idleMs || now - session.created_ms >= this.maxAgeMs) return undefined;
    let user: UserRow | undefined;
    if (session.user_id !== '') {
      user = await this.store.userById(session.user_id);
      if (!user || user.removed || session.user_epoch < user.sessions_after_ms) return undefined;
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
