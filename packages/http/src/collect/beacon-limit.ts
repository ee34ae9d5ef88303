/**
 * Beacons per client network. `/collect` needs no key, and every beacon with a new user
 * agent is a new visitor with an open session in memory, so one client must not be able to
 * send as many as the server can take.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ClientBudget, type ClientBudgetOptions } from '../client-budget.js';
import { HTTP_MESSAGES } from '../errors.js';
import { clientNetwork } from './client-ip.js';
import { readBody, sendJson } from './http-io.js';
import { MAX_BODY_BYTES } from './payload.js';

/** Beacons a client may send per window (and at once), and the window (default 60,000 ms). */
export type BeaconLimit = Pick<ClientBudgetOptions, 'limit' | 'windowMs'>;

/**
 * 600 a minute per client network: ten pages a second from one address, for many visitors
 * behind one NAT or proxy, far below what a flood needs.
 * @example createCollectHandler({ storage, beaconLimit: { ...DEFAULT_BEACON_LIMIT, limit: 3000 } })
 */
export const DEFAULT_BEACON_LIMIT: BeaconLimit = { limit: 600, windowMs: 60_000 };

/**
 * The collector's limit; `undefined` when turned off (`false`). The client is `clientIp`
 * counted by `clientNetwork`, as for failed authentications.
 * @example const limit = beaconLimit(DEFAULT_BEACON_LIMIT);
 */
export function beaconLimit(options: BeaconLimit | false | undefined) {
  if (options === false) return undefined;
  const budget = new ClientBudget(options ?? DEFAULT_BEACON_LIMIT);
  return {
    /**
     * Spends one beacon of the client (`ip`, `clientIp` of the request); when none is left, answers 429 with `Retry-After`
     * (after reading the small body, so the connection stays usable) and resolves `true`.
     */
    async refuse(req: IncomingMessage, res: ServerResponse, ip: string, now: number): Promise<boolean> {
      const client = clientNetwork(ip);
      if (budget.take(client, now)) return false;
      const body = await readBody(req, MAX_BODY_BYTES);
      const headers: Record<string, string> = { 'Retry-After': String(budget.retryAfterSeconds(client, now)) };
      if (!body.ok) headers.Connection = 'close';
      sendJson(res, 429, { error: HTTP_MESSAGES.tooManyRequests }, headers);
      return true;
    },
  };
}
