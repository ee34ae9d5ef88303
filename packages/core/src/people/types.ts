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

/**
 * A user as stores keep it. Only `addUser` writes a whole row; every later change is one
 * narrow `PeopleStore.changeUser` (or `useRecoveryCode`) that writes its own fields and
 * nothing read before it, so concurrent changes never undo each other.
 */
export interface UserRow {
  /** `usr_` and 16 letters or digits. */
  id: string;
  /** The Cloud account, or `COMMUNITY_ACCOUNT`. */
  account_id: string;
  /** Lower-cased, trimmed; unique among the account's users not removed (an email may have users in several accounts). */
  email: string;
  role: Role;
  /** `passwords.ts` form, `''` until the user sets one through a link. */
  password_hash: string;
  /** Base32 TOTP secret, `''` without two-factor. */
  totp_secret: string;
  /** SHA-256 hex of each recovery code not used yet. */
  recovery_hashes: string[];
  /**
   * The user's session epoch: raised (to at least the instant, ms, and always above its
   * previous value) by every password change. A session records the epoch its sign-in read
   * and ends once the user's is higher ("sign out everywhere", with no clock comparison).
   */
  sessions_after_ms: number;
  created_at: string;
  removed: boolean;
}

/** One change to one user, as `PeopleStore.changeUser` writes it: only these fields. */
export type UserChange =
  /** A new password hash; raises the session epoch (every session ends). */
  | { kind: 'password'; password_hash: string }
  /** A new role; refused when it would leave the account without an owner. */
  | { kind: 'role'; role: Role }
  /** Removes the user (their sessions end); refused when it would leave the account without an owner. */
  | { kind: 'removed' }
  /** Two-factor on (a secret and recovery codes' hashes) or off (`''`, `[]`). */
  | { kind: 'two-factor'; totp_secret: string; recovery_hashes: string[] };

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
  /** The user's `sessions_after_ms` when the sign-in read the user (before checking the password); 0 for a key session. */
  user_epoch: number;
}

/**
 * What a backend stores for people: rows in, rows out, each change atomic on its own. The
 * rules (who may do what, expiry, hashing, the throttle's arithmetic) are `People`'s and
 * `SignInThrottle`'s, written once over this contract.
 */
export interface PeopleStore {
  /**
   * Adds a user; false (nothing added) when the account already has a user with this email
   * who is not removed. Of concurrent adds of one email to one account at most one succeeds
   * (a store without transactions may refuse all of them).
   */
  addUser(row: UserRow): Promise<boolean>;
  userById(id: string): Promise<UserRow | undefined>;
  /** The users with this (normalised) email who are not removed, of every account, in any order. */
  usersByEmail(email: string): Promise<UserRow[]>;
  /** The account's users who are not removed, in any order. */
  usersOf(accountId: string): Promise<UserRow[]>;
  /**
   * Applies one narrow change to a user who is not removed, atomically; false when there is
   * no such user or (role, removal) the account would be left without an owner.
   */
  changeUser(userId: string, change: UserChange, nowMs: number): Promise<boolean>;
  /**
   * Spends one of the user's recovery codes (by its hash): true for exactly one caller per
   * code, false when it is not among the unused ones. A store without transactions may
   * refuse all of several racing uses (the code is then spent).
   */
  useRecoveryCode(userId: string, codeHash: string): Promise<boolean>;
  saveLink(row: LinkRow): Promise<void>;
  /**
   * Marks the link used and returns it, if it exists and was not used before: of several
   * calls with one token at most one ever gets the row (see each store for how); a store
   * without transactions may refuse all of several racing calls.
   */
  useLink(tokenHash: string, nowMs: number): Promise<LinkRow | undefined>;
  /** Marks every link of the user used (a password was set: older links must not set another). */
  endLinks(userId: string, nowMs: number): Promise<void>;
  /** Inserts or replaces the whole row; a row with `ended` stays ended. */
  saveSession(row: WebSessionRow): Promise<void>;
  session(idHash: string): Promise<WebSessionRow | undefined>;
  /**
   * Records that the user's two-factor code of this 30-second time step was accepted, if no
   * code of this step or a later one was before: true then, false for a replay. Of several
   * racing calls for one step at most one gets true (a store without transactions may refuse all).
   */
  useTotpStep(userId: string, step: number): Promise<boolean>;
  /**
   * Reserves a sign-in attempt before its password is checked: `decide` is given, per key of
   * the attempt, the key's newest counted rows (newest first, the attempt's own left out)
   * and returns how long the attempt must wait (ms). 0: the attempt is recorded as a failure
   * under every key (until `signInSucceeded`) and may go on; more: nothing stays recorded.
   * Concurrent reservations see each other (a store with transactions runs them one at a
   * time; one without inserts first, then reads, so each sees every reservation made before
   * it and N concurrent attempts count as N).
   */
  reserveSignIn(attempt: SignInAttempt, decide: (history: SignInRow[][]) => number): Promise<number>;
  /**
   * The reserved attempt succeeded: under each key of `clears` it becomes a success at
   * `atMs` (the failures before it stop counting); under its other keys it stops counting.
   */
  signInSucceeded(attempt: SignInAttempt, clears: readonly string[], atMs: number): Promise<void>;
  /**
   * Deletes what can no longer be used (`People.removeExpired` decides the bounds): web
   * sessions created before `sessionsCreatedBefore`, and (where a store can tell them
   * apart row by row) ended ones or ones last used before `sessionsSeenBefore`; links
   * used, or expired by `linksExpiredBy`; two-factor steps and sign-in attempts older than
   * `attemptsBefore`. Resolves once the rows are gone.
   */
  removeExpired(bounds: ExpiryBounds): Promise<void>;
}

/** A sign-in attempt as the throttle reserves it. */
export interface SignInAttempt {
  /** Random; names the attempt's rows. */
  id: string;
  at_ms: number;
  /** The keys it counts under (hashes), each with how many of the key's newest rows `decide` needs. */
  keys: readonly { key: string; read: number }[];
}

/** One sign-in attempt as the throttle counts it: a failure (or a reservation not settled yet), or a success. */
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
