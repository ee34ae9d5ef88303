/**
 * Sign-in (an API key, or email and password with the optional second factor, throttled),
 * sign-out and the one-time set-password links. Every sign-in starts a new session id.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { COMMUNITY_ACCOUNT, normalEmail, type People, PeopleError, type UserRow } from '@siteline/core';
import { MAX_KEY_LENGTH } from '../auth.js';
import { clientIp, clientNetwork } from '../collect/client-ip.js';
import { readForm, refusedPost } from '../people/form.js';
import { setPasswordPage } from '../people/pages.js';
import { verifyTotp } from '../people/totp.js';
import { RateLimiter } from '../rate-limit.js';
import { clearedSessionCookie, redirect, sameOrigin, sendHtml, sendJson, sessionCookie, sessionIdOf } from './http-io.js';
import type { DashboardContext } from './options.js';
import { safeView, signInPage } from './pages.js';

/** `1 second`, `8 seconds` (the Retry-After value, a whole number). */
const inSeconds = (seconds: string) => `${seconds} second${seconds === '1' ? '' : 's'}`;

const MESSAGES = {
  refused: 'This key was not accepted. Check it and try again.',
  password: 'The email or the password is not right.',
  totp: 'The two-factor code is not right.',
  totpUsed: 'That two-factor code was already used: each code works once, and the one that turned two-factor on counts. Enter the next code your app shows (it changes every 30 seconds).',
  slowDown: (seconds: string) => `Too many failed sign-ins for this email. Try again in ${inSeconds(seconds)}.`,
  chooseAccount: 'This email has a user in more than one account. Choose the account, and enter the password again.',
  origin: 'This form must be sent from this server\'s own sign-in page.',
  tooMany: (seconds: string) => `Too many sign-in attempts from this address. Try again in ${inSeconds(seconds)}.`,
} as const;

type Route = (req: IncomingMessage, res: ServerResponse) => Promise<number>;

/** `dashboard/sign-in` and `dashboard/sign-out` (posts), `dashboard/set-password` (the form and its post). */
export function signInRoutes(ctx: DashboardContext, communityTag: string): { signIn: Route; signOut: Route; setPassword: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<number> } {
  const { options, base, now, logger, trustProxy, people, assets, throttle } = ctx;
  const cloud = options.accounts !== undefined;
  const origin = { trustProxy, ...(options.publicOrigin ? { publicOrigin: options.publicOrigin } : {}) };
  const limiter = options.signInRateLimit === false ? undefined : new RateLimiter(options.signInRateLimit ?? { limit: 10, windowMs: 60_000 });

  /** Ends the browser's old session (if any) and starts a new one: the id is rotated at every sign-in. */
  const startSession = async (req: IncomingMessage, res: ServerResponse, subject: Parameters<People['startSession']>[0], view: string): Promise<number> => {
    await people.endSession(sessionIdOf(req));
    const { id } = await people.startSession(subject);
    return redirect(req, res, `${base}/${view}`, { 'Set-Cookie': sessionCookie(id) });
  };

  const signIn = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    const files = await assets;
    /** The form again, as answered at `dashboard/sign-in` (its links lead one directory up). */
    const again = (options: Parameters<typeof signInPage>[1]) => signInPage(files, { ...options, root: '../' });
    if (!sameOrigin(req, trustProxy, options.publicOrigin)) return sendHtml(req, res, 403, again({ view: '', error: MESSAGES.origin }));
    // Counted by network, as the API's failed-key limit counts: an IPv6 client by its /64.
    const client = clientNetwork(clientIp(req, trustProxy));
    if (limiter) {
      const rate = limiter.hit(client, now());
      if (!rate.allowed) {
        const seconds = String(rate.resetSeconds);
        return sendHtml(req, res, 429, again({ view: '', error: MESSAGES.tooMany(seconds) }), { 'Retry-After': seconds });
      }
    }
    const form = await readForm(req);
    if (form === 0) return 0;
    if (form === 415) return sendHtml(req, res, 415, again({ view: '', error: 'Unsupported Media Type' }));
    if (form === 413) return sendHtml(req, res, 413, again({ view: '', error: 'Payload Too Large' }), { Connection: 'close' });
    const view = safeView(form.get('view') ?? undefined);
    if (form.has('key')) {
      const key = form.get('key') ?? '';
      const principal = key.length > 0 && key.length <= MAX_KEY_LENGTH ? await options.authenticate(key) : null;
      if (!principal) {
        logger({ level: 'warn', msg: 'dashboard sign-in refused' });
        return sendHtml(req, res, 401, again({ view, error: MESSAGES.refused }));
      }
      logger({ level: 'info', msg: 'dashboard sign-in', key_id: principal.keyId });
      const keyId = principal.keyId === 'community' ? communityTag : principal.keyId;
      return startSession(req, res, { keyId, accountId: principal.accountId ?? '' }, view);
    }
    return signInWithPassword(req, res, form, view, client);
  };

  /**
   * Email and password (and the second factor): the attempt is counted by the throttle
   * before the password is checked, and stays a failure unless it succeeds. The users the
   * edition serves (Cloud: an account's; Community: the installation's) with this email and
   * password: none, 401; several (one person, several accounts), the form again asking which
   * account; one, its second factor, then a session that keeps the user's epoch as read here.
   */
  const signInWithPassword = async (req: IncomingMessage, res: ServerResponse, form: URLSearchParams, view: string, client: string): Promise<number> => {
    const files = await assets;
    const again = (shown: Parameters<typeof signInPage>[1]) => signInPage(files, { ...shown, root: '../' });
    let email: string;
    try {
      email = normalEmail(form.get('email') ?? '');
    } catch (error) {
      return sendHtml(req, res, 401, again({ view, error: (error as PeopleError).message }));
    }
    const shown = { view, email };
    const { waitMs, attempt } = await throttle.reserve(email, client, now());
    if (!attempt) {
      const seconds = String(Math.ceil(waitMs / 1000));
      logger({ level: 'warn', msg: 'dashboard sign-in throttled', wait_s: Number(seconds) });
      return sendHtml(req, res, 429, again({ ...shown, error: MESSAGES.slowDown(seconds) }), { 'Retry-After': seconds });
    }
    const chosen = cloud ? form.get('account') ?? undefined : undefined;
    const served = (u: UserRow) => (cloud ? u.account_id !== COMMUNITY_ACCOUNT : u.account_id === COMMUNITY_ACCOUNT) && (chosen === undefined || u.account_id === chosen);
    const users = await people.usersWithPassword(email, form.get('password') ?? '', served);
    if (users.length > 1) {
      await throttle.succeeded(attempt, now()); // the password was right: nothing to slow down
      const accounts = await Promise.all(users.map(async (u) => ({ id: u.account_id, name: (await options.accounts!.getAccount(u.account_id))?.name ?? u.account_id })));
      return sendHtml(req, res, 200, again({ ...shown, info: MESSAGES.chooseAccount, accounts: accounts.sort((a, b) => a.name.localeCompare(b.name)) }));
    }
    const [user] = users;
    const secondFactor = user && user.totp_secret !== '' ? await verifyTotp(people, user, form.get('totp') ?? '', now()) : 'ok';
    if (!user || secondFactor !== 'ok') {
      logger({ level: 'warn', msg: 'dashboard sign-in refused', reason: user ? 'totp' : 'password' });
      return sendHtml(req, res, 401, again({ ...shown, error: !user ? MESSAGES.password : secondFactor === 'used' ? MESSAGES.totpUsed : MESSAGES.totp }));
    }
    await throttle.succeeded(attempt, now());
    logger({ level: 'info', msg: 'dashboard sign-in', user_id: user.id });
    return startSession(req, res, { user }, view);
  };

  const signOut = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    const form = await readForm(req);
    if (form === 0) return 0;
    const signedIn = await people.session(sessionIdOf(req));
    const refused = refusedPost(req, typeof form === 'number' ? new URLSearchParams() : form, signedIn?.session, origin);
    if (refused) return sendJson(req, res, 403, { error: refused });
    await people.endSession(sessionIdOf(req));
    return redirect(req, res, `${base}/`, { 'Set-Cookie': clearedSessionCookie() });
  };

  /** `GET dashboard/set-password?token=…`: the form; `POST`: sets the password and uses the link up. */
  const setPassword = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<number> => {
    const files = await assets;
    // The dashboard's Referrer-Policy (same-origin) stays: with no-referrer Chromium posts `Origin: null`.
    if (req.method !== 'POST') return sendHtml(req, res, 200, setPasswordPage(files, (url.searchParams.get('token') ?? '').slice(0, 64)));
    const form = await readForm(req);
    if (form === 0) return 0;
    if (typeof form === 'number') return sendHtml(req, res, form, setPasswordPage(files, '', form === 413 ? 'Payload Too Large' : 'Unsupported Media Type'));
    const token = (form.get('token') ?? '').slice(0, 64);
    const refused = refusedPost(req, form, undefined, origin);
    if (refused) return sendHtml(req, res, 403, setPasswordPage(files, token, refused));
    try {
      const user = await people.setPasswordWithLink(token, form.get('password') ?? '');
      logger({ level: 'info', msg: 'password set with a link', user_id: user.id });
      return redirect(req, res, `${base}/?notice=password-set`);
    } catch (error) {
      if (!(error instanceof PeopleError)) throw error;
      return sendHtml(req, res, 400, setPasswordPage(files, token, error.message));
    }
  };

  return { signIn, signOut, setPassword };
}
