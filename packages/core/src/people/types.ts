/**
 * People of an installation (issue 25): users who sign in to the dashboard and the account
 * pages with an email and a password, one-time links that set a password, and the web
 * sessions of every browser signed in (by password, or by an API key as before). All of it
 * lives in the backend, so any server process on any host serves any session.
 */

/** `owner`: everything; `viewer`: the dashboard of the account's sites, nothing else. */
export type Role = 'owner' | 'viewer';
export const ROLES: readonly Role[] = ['owner', 'viewer'];

/** The account of the Community edition's users (it has no accounts). */
export const COMMUNITY_ACCOUNT = '';

/** A user as stores keep it. A row is replaced whole on every change (ClickHouse keeps the newest version). */
export interface UserRow {
  /** `usr_` and 16 letters or digits. */
  id: string;
  /** The Cloud account, or `COMMUNITY_ACCOUNT`. */
  account_id: string;
  /** Lower-cased, trimmed; unique among users not removed. */
  email: string;
  role: Role;
  /** `passwords.ts` form, `''` until the user sets one through a link. */
  password_hash: string;
  /** Base32 TOTP secret, `''` without two-factor. */
  totp_secret: string;
  /** SHA-256 hex of each unused recovery code. */
  recovery_hashes: string[];
  /** Sessions created before this instant (ms) are ended: set on a password change ("sign out everywhere"). */
  sessions_after_ms: number;
  created_at: string;
  removed: boolean;
}

/** A one-time link's stored form: the SHA-256 of its token, never the token. */
export interface LinkRow {
  token_hash: string;
  user_id: string;
  expires_ms: number;
}

/**
 * A signed-in browser. `user_id` for a password sign-in; `key_id` (and `account_id`) for a
 * sign-in with an API key. Stored under the SHA-256 of the cookie's id.
 */
export interface WebSessionRow {
  id_hash: string;
  user_id: string;
  key_id: string;
  account_id: string;
  /** The session's CSRF token, sent back in every form it posts. */
  csrf: string;
  created_ms: number;
  last_seen_ms: number;
  ended: boolean;
}

/**
 * What a backend stores for people: rows in, rows out. The rules (who may do what, expiry,
 * hashing) are `People`'s, written once over this contract.
 */
export interface PeopleStore {
  /** Inserts or replaces the whole row. */
  saveUser(row: UserRow): Promise<void>;
  userById(id: string): Promise<UserRow | undefined>;
  /** The user with this (normalised) email who is not removed. */
  userByEmail(email: string): Promise<UserRow | undefined>;
  /** The account's users who are not removed, in any order. */
  usersOf(accountId: string): Promise<UserRow[]>;
  saveLink(row: LinkRow): Promise<void>;
  /**
   * Marks the link used and returns it, if it exists and was not used before: of several
   * calls with one token at most one ever gets the row (see each store for how); a store
   * without transactions may refuse all of several racing calls.
   */
  useLink(tokenHash: string, nowMs: number): Promise<LinkRow | undefined>;
  /** Inserts or replaces the whole row; a row with `ended` stays ended. */
  saveSession(row: WebSessionRow): Promise<void>;
  session(idHash: string): Promise<WebSessionRow | undefined>;
  /**
   * Records that the user's two-factor code of this 30-second time step was accepted, if no
   * code of this step or a later one was before: true then, false for a replay. Of several
   * racing calls for one step at most one gets true (a store without transactions may refuse all).
   */
  useTotpStep(userId: string, step: number): Promise<boolean>;
  /** Records a sign-in attempt under the throttle's key (a hash): failed, or a success that clears the count before it. */
  addSignIn(key: string, atMs: number, failed: boolean): Promise<void>;
  /** The key's latest `limit` attempts, newest first; of attempts in the same millisecond the failures count as newer (a tie holds rather than frees). */
  signIns(key: string, limit: number): Promise<SignInRow[]>;
  /**
   * Deletes what can no longer be used (`People.removeExpired` decides the bounds): web
   * sessions created before `sessionsCreatedBefore`, and (where a store can tell them
   * apart row by row) ended ones or ones last used before `sessionsSeenBefore`; links
   * used, or expired by `linksExpiredBy`; two-factor steps and sign-in attempts older than
   * `attemptsBefore`. Resolves once the rows are gone.
   */
  removeExpired(bounds: ExpiryBounds): Promise<void>;
}

/** One sign-in attempt as the throttle counts it. */
export interface SignInRow {
  at_ms: number;
  failed: boolean;
}

/** What `PeopleStore.removeExpired` deletes (instants in ms). */
export interface ExpiryBounds {
  sessionsCreatedBefore: number;
  sessionsSeenBefore: number;
  linksExpiredBy: number;
  attemptsBefore: number;
}
