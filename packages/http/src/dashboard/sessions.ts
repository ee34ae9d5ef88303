/**
 * Which live session a request carries and whom it reads as: its user, or the key it signed
 * in with while that key is still valid (a Cloud key not revoked; the Community key not changed).
 */
import type { IncomingMessage } from 'node:http';
import { type AccountStore, COMMUNITY_ACCOUNT, type People, type UserRow, type WebSessionRow } from '@siteline/core';
import type { Principal } from '../auth.js';
import { clearedSessionCookie, sessionIdOf } from './http-io.js';
import type { DashboardContext } from './options.js';

/** The session look-ups of `DashboardContext`. */
export function sessionLookup(people: People, communityTag: string, accounts?: AccountStore): Pick<DashboardContext, 'current' | 'staleCookie'> {
  const principalFor = async (session: WebSessionRow, user: UserRow | undefined): Promise<Principal | undefined> => {
    // A user reads their account's sites (Cloud) or the installation's (Community): a Cloud user without an account reads nothing,
    // never every account's, and an account's user is nobody in the Community edition.
    if (user) {
      if (accounts) return user.account_id === COMMUNITY_ACCOUNT ? undefined : { keyId: user.id, accountId: user.account_id };
      return user.account_id === COMMUNITY_ACCOUNT ? { keyId: user.id } : undefined;
    }
    if (session.key_id === communityTag) return { keyId: 'community' };
    if (accounts && session.key_id.startsWith('key_')) {
      const keyId = session.key_id;
      if (!(await accounts.isActive(keyId))) return undefined;
      return { keyId, accountId: session.account_id, stillValid: () => accounts.isActive(keyId) };
    }
    return undefined;
  };
  return {
    async current(req: IncomingMessage) {
      const id = sessionIdOf(req);
      const found = await people.session(id);
      if (!found) return undefined;
      const principal = await principalFor(found.session, found.user);
      if (!principal) {
        await people.endSession(id);
        return undefined;
      }
      return { ...found, principal };
    },
    staleCookie: (req: IncomingMessage): Record<string, string> => (sessionIdOf(req) === undefined ? {} : { 'Set-Cookie': clearedSessionCookie() }),
  };
}
