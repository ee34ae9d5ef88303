/**
 * A limit on failed authentications per client network: without it, anyone can try keys as
 * fast as the server answers. Once a client has failed `limit` times (refilled at `limit`
 * per window), its requests get 429 before their key is looked at, so a guess costs nothing
 * and tells nothing until the client has waited.
 */
import type { IncomingMessage } from 'node:http';
import { ClientBudget } from './client-budget.js';
import { clientIp, clientNetwork } from './collect/client-ip.js';
import { HTTP_MESSAGES, HttpError } from './errors.js';

/** Failed authentications a client may make per window, and the window (default 60,000 ms). */
export interface AuthFailureLimit {
  limit: number;
  windowMs?: number;
}

/**
 * 30 failures a minute: plenty for a misconfigured client to see its 401s, nothing for guessing a key.
 * @example createApiHandler({ storage, authenticate, authFailureLimit: { ...DEFAULT_AUTH_FAILURE_LIMIT, limit: 10 } })
 */
export const DEFAULT_AUTH_FAILURE_LIMIT: AuthFailureLimit = { limit: 30, windowMs: 60_000 };

/**
 * The limit for the API handler; `undefined` when turned off (`false`). The client is
 * `clientIp` (the socket address, or `X-Forwarded-For` behind a trusted proxy) counted by
 * `clientNetwork` (an IPv6 client by its /64).
 * @example const failures = authFailureLimit({ limit: 30 }, false);
 */
export function authFailureLimit(options: AuthFailureLimit | false | undefined, trustProxy: boolean) {
  if (options === false) return undefined;
  const budget = new ClientBudget(options ?? DEFAULT_AUTH_FAILURE_LIMIT);
  const network = (req: IncomingMessage) => clientNetwork(clientIp(req, trustProxy));
  return {
    /** Throws 429 (with `Retry-After`) when the client has no failures left. */
    refuseSpent(req: IncomingMessage, now: number): void {
      const client = network(req);
      if (!budget.has(client, now)) {
        throw new HttpError(429, HTTP_MESSAGES.tooManyRequests, { 'Retry-After': String(budget.retryAfterSeconds(client, now)) });
      }
    },
    /** Counts a failed authentication of the client. */
    failed(req: IncomingMessage, now: number): void {
      budget.take(network(req), now);
    },
  };
}
