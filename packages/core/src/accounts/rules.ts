/**
 * Rules every account store follows, defined once: id shapes, name checks and how often a
 * key's last use is written. Adapters import them (SQLite here, ClickHouse in its package).
 */
import { randomInt } from 'node:crypto';
import { maskKey } from './keys.js';
import type { ApiKeyInfo } from './types.js';

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';
const randomId = (prefix: string, length: number) => {
  let id = prefix;
  for (let i = 0; i < length; i++) id += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return id;
};

/**
 * A new account id: `acct_` and 16 lowercase letters or digits from the CSPRNG.
 * @example newAccountId() // 'acct_k2v9q0x7m1c3z8b4'
 */
export const newAccountId = (): string => randomId('acct_', 16);

/**
 * The id for a new account: `id` when it has the shape of `newAccountId`'s, else an error; a new one without.
 * @example accountIdFor(undefined) // 'acct_…' (new)
 */
export function accountIdFor(id: string | undefined): string {
  if (id === undefined) return newAccountId();
  if (!/^acct_[a-z0-9]{16}$/.test(id)) throw new Error(`An account id is acct_ and 16 lowercase letters or digits, got ${JSON.stringify(id.slice(0, 40))}.`);
  return id;
}

/**
 * A new key id (not the key): `key_` and 12 lowercase letters or digits.
 * @example newKeyId() // 'key_p4n8d2s0w6qa'
 */
export const newKeyId = (): string => randomId('key_', 12);

/**
 * A new dashboard user id: `usr_` and 16 lowercase letters or digits.
 * @example newUserId() // 'usr_3k9v0q2m7x1c8z4b'
 */
export const newUserId = (): string => randomId('usr_', 16);

/**
 * A new shared link id (not its token): `lnk_` and 12 lowercase letters or digits.
 * @example newSharedLinkId() // 'lnk_7c2m9x0q4v1b'
 */
export const newSharedLinkId = (): string => randomId('lnk_', 12);

/**
 * The trimmed name of an account or key, or an error saying what a name must be.
 * @example accountName('  Acme ', 'An account') // 'Acme'
 */
export function accountName(name: string, what: 'An account' | 'A key'): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100) throw new Error(`${what} needs a descriptive name of 1 to 100 characters.`);
  return trimmed;
}

/** A key's last use is written at most once a minute, not on every request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** A key as account stores keep it (their column names), never the key itself nor its hash. */
export interface StoredKeyRow {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  last4: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/**
 * How a stored key is listed: masked to its first and last four characters.
 * @example keyInfo(row).masked // 'st_a…9f3c'
 */
export function keyInfo(row: StoredKeyRow): ApiKeyInfo {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    masked: maskKey(row.prefix, row.last4),
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

/** The order accounts and keys are listed in: creation time, then id. */
export function byCreation<T extends { createdAt: string; id: string }>(a: T, b: T): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
