import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AccountStore, FilterCondition } from '@siteline/core';

/** Who a key belongs to, as far as the API cares. */
export interface Principal {
  /** Stable, non-secret id of the key (rate-limit bucket, logs). */
  keyId: string;
  /** Restricts reads to this account's sites (Cloud); undefined reads every site (Community). */
  accountId?: string;
  /** Restricts reads to this one site (a shared link): any other is reported like a missing one, and `/export` is not offered. */
  siteId?: string;
  /** Conditions added to every read's `filters` (a shared link's segment), which the reader cannot remove; `/live` (unfiltered) is not offered then. */
  filters?: readonly FilterCondition[];
  /**
   * Checked again just before the response is sent, so a key revoked while
   * its request was in flight still gets 401. Omit when keys cannot be revoked.
   */
  stillValid?: () => boolean | Promise<boolean>;
}

/** Turns a presented key into a principal, or `null` when it is not valid. */
export type Authenticator = (key: string) => Principal | null | Promise<Principal | null>;

/** Longest key the adapter will look at; longer ones are rejected unread. */
export const MAX_KEY_LENGTH = 512;

/**
 * The key a request presents (decisions.md section 6): when an
 * `Authorization` header is present it alone decides (`Bearer <key>`),
 * otherwise a single `api_key` query parameter. `undefined` when there is none
 * or it is malformed.
 */
export function presentedKey(req: IncomingMessage, query: URLSearchParams): string | undefined {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer +(\S+) *$/i.exec(header);
    return match && match[1]!.length <= MAX_KEY_LENGTH ? match[1] : undefined;
  }
  const values = query.getAll('api_key');
  return values.length === 1 && values[0]!.length > 0 && values[0]!.length <= MAX_KEY_LENGTH ? values[0] : undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The Community edition's authenticator: exactly one configured key,
 * compared in constant time (both sides hashed first, so the comparison does
 * not depend on the key's length either).
 * @example createApiHandler({ storage, authenticate: communityAuthenticator(process.env.SERVICE_API_KEY!) })
 */
export function communityAuthenticator(serviceKey: string): Authenticator {
  if (serviceKey.length === 0) throw new Error('SERVICE_API_KEY must not be empty.');
  const expected = digest(serviceKey);
  const principal: Principal = { keyId: 'community' };
  return (key) => (timingSafeEqual(digest(key), expected) ? principal : null);
}

/**
 * What a dashboard session started with the Community key records instead of the key: a
 * 64-bit HMAC fingerprint of it. A session whose tag is not the current key's ends, so
 * changing `SERVICE_API_KEY` (and restarting) signs out the browsers that used the old one.
 * @example createDashboardHandler({ ..., communityKeyTag: communityKeyTag(process.env.SERVICE_API_KEY!) })
 */
export function communityKeyTag(serviceKey: string): string {
  return `community:${createHmac('sha256', 'siteline/dashboard-session/v1').update(serviceKey).digest('hex').slice(0, 16)}`;
}

/**
 * The Cloud edition's authenticator: account keys from an `AccountStore`.
 * A key reads only its account's sites, and is checked again before the
 * response is sent, so revoking it fails requests already in flight.
 * @example createApiHandler({ storage: backend.storage, authenticate: cloudAuthenticator(backend.accounts) })
 */
export function cloudAuthenticator(accounts: AccountStore): Authenticator {
  return async (key) => {
    const identity = await accounts.authenticate(key);
    if (!identity) return null;
    return { keyId: identity.keyId, accountId: identity.accountId, stillValid: () => accounts.isActive(identity.keyId) };
  };
}
