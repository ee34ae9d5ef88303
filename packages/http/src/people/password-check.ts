/**
 * A password typed by a signed-in person (the current password that confirms a change on
 * the account pages) is checked through the sign-in throttle, under the same keys as a
 * sign-in of that email from that client network: a session left open is no cheaper a way
 * to guess the password than the sign-in form.
 */
import type { IncomingMessage } from 'node:http';
import type { People, SignInThrottle, UserRow } from '@siteline/core';
import { clientIp, clientNetwork } from '../collect/client-ip.js';

/** Right, wrong, or held (the throttle's wait, whole seconds; no password was checked). */
export type PasswordCheck = { right: true } | { right: false; waitSeconds?: number };

/** Checks `password` against the user's, counted as a sign-in attempt of their email. */
export type CheckPassword = (req: IncomingMessage, user: UserRow, password: string) => Promise<PasswordCheck>;

/** @example const check = passwordCheck(people, throttle, trustProxy, Date.now); if (!(await check(req, user, form.get('current'))).right) … */
export function passwordCheck(people: People, throttle: SignInThrottle, trustProxy: boolean, now: () => number): CheckPassword {
  return async (req, user, password) => {
    const { waitMs, attempt } = await throttle.reserve(user.email, clientNetwork(clientIp(req, trustProxy)), now());
    if (!attempt) return { right: false, waitSeconds: Math.ceil(waitMs / 1000) };
    if (!(await people.isPassword(user, password))) return { right: false };
    await throttle.succeeded(attempt, now());
    return { right: true };
  };
}
