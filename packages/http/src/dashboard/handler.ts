/**
 * The dashboard as a Node request listener: the pages, sign-in and sign-out, the assets,
 * and the data, which it reads through the API handler's own pipeline (`ApiHandler.serveAs`)
 * with the session's principal in place of a key.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AccountStore, normalEmail, People, PeopleError, SignInThrottle, type Storage, type ThrottleOptions, type UserRow, type WebSessionRow } from '@siteline/core';
import { type Authenticator, MAX_KEY_LENGTH, type Principal } from '../auth.js';
import { clientIp } from '../collect/client-ip.js';
import { readForm, refusedPost } from '../people/form.js';
import { accountRoutes } from '../people/routes.js';
import { setPasswordPage } from '../people/pages.js';
import { verifyTotp } from '../people/totp.js';
import { HTTP_MESSAGES } from '../errors.js';
import { type ApiHandler, isHttps } from '../handler.js';
import { jsonLogger, type Logger } from '../log.js';
import { RateLimiter, type RateLimitOptions } from '../rate-limit.js';
import { type DashboardAssets, loadAssets } from './assets.js';
import {
  clearedSessionCookie, redirect, sameOrigin, send, sendHtml, sendJson, sessionCookie, sessionIdOf,
} from './http-io.js';
import { appPage, carriesKey, KEY_IN_URL_NOTICE, safeView, signInPage } from './pages.js';

export interface DashboardHandlerOptions {
  /** The API handler whose rules the dashboard's data requests go through (validation, site access, rate limit, reports). */
  api: ApiHandler;
  /** Decides which keys may sign in: the same authenticator as the API's. */
  authenticate: Authenticator;
  /**
   * Where the site picker's sites come from (a Cloud key sees its account's only), and what
   * the storage can answer: without `capabilities.selection` (filters), `hourBuckets`
   * (hours), `capabilities.properties` or `capabilities.goals` the dashboard does not offer
   * them, as the API would refuse them.
   */
  storage: Storage;
  /**
   * Users and web sessions (the backend's `people`): every session, by password or by key,
   * lives there, so any server process on the backend serves it.
   */
  people: People;
  /** Cloud: the account store (key pages for owners; key sessions end when their key is revoked). Absent in the Community edition. */
  accounts?: AccountStore;
  /**
   * What a session started with the Community key records instead of the key (`communityKeyTag`):
   * a session whose tag is not the current key's ends, so changing `SERVICE_API_KEY` signs those browsers out.
   */
  communityKeyTag?: string;
  /** Path the dashboard is served at; default `''` (the page is `/`, the rest under `/dashboard/`). */
  basePath?: string;
  /** As for the API: behind a TLS-terminating proxy you control. Also reads `X-Forwarded-Host` for the origin check. */
  trustProxy?: boolean;
  /**
   * The origin browsers use to reach the dashboard (`https://stats.example.com`). Sign-in and
   * sign-out accept only posts whose `Origin` is this; default: `https://` and the request's host.
   */
  publicOrigin?: string;
  /** Sign-in attempts per client IP; default 10 a minute; `false` turns the limit off. */
  signInRateLimit?: RateLimitOptions | false;
  /** Failed password sign-ins per email and client (`SignInThrottle`, counted in the backend); default `THROTTLE_DEFAULTS`. */
  throttle?: ThrottleOptions;
  /** Sends a one-time link by mail; resolves false when mail is not set up (`SMTP_URL`). */
  mailLink?: (to: string, url: string) => Promise<boolean>;
  /** Path of the tracker script shown in the install snippet; default `/tracker.js`. */
  trackerPath?: string;
  logger?: Logger;
  /** Clock, for tests; default `Date.now`. */
  now?: () => number;
}

export type DashboardHandler = ((req: IncomingMessage, res: ServerResponse, next?: () => void) => Promise<void>) & {
  /** Resolves once the assets are loaded (rejects when they are missing). */
  ready(): Promise<void>;
};

const MESSAGES = {
  refused: 'This key was not accepted. Check it and try again.',
  password: 'The email or the password is not right.',
  totp: 'The two-factor code is not right.',
  slowDown: (seconds: string) => `Too many failed sign-ins for this email. Try again in ${seconds} seconds.`,
  origin: 'This form must be sent from this server\'s own sign-in page.',
  tooMany: (seconds: string) => `Too many sign-in attempts from this address. Try again in ${seconds} seconds.`,
  https: HTTP_MESSAGES.https,
} as const;

/**
 * The dashboard as a `(req, res, next?)` listener. Serves `GET {basePath}/` (the dashboard,
 * or the sign-in form without a session) and everything under `{basePath}/dashboard/`
 * (sign-in, sign-out, assets, data); other paths go to `next()` when given, else 404.
 *
 * @example
 * const authenticate = communityAuthenticator(process.env.SERVICE_API_KEY!);
 * const api = createApiHandler({ storage: backend.storage, authenticate });
 * const dashboard = createDashboardHandler({ api, authenticate, storage: backend.storage });
 * https.createServer(tls, (req, res) => dashboard(req, res, () => api(req, res))).listen(8443);
 */
export function createDashboardHandler(options: DashboardHandlerOptions): DashboardHandler {
  const base = (options.basePath ?? '').replace(/\/+$/, '');
  const prefix = `${base}/dashboard/`;
  const now = options.now ?? Date.now;
  const logger = options.logger ?? jsonLogger();
  const trustProxy = options.trustProxy ?? false;
  const { people } = options;
  const throttle = new SignInThrottle(people.store, options.throttle);
  const communityTag = options.communityKeyTag ?? 'community';
  const origin = { trustProxy, ...(options.publicOrigin ? { publicOrigin: options.publicOrigin } : {}) };
  const account = accountRoutes({
    people, storage: options.storage, ...(options.accounts ? { accounts: options.accounts } : {}), trustProxy,
    ...(options.publicOrigin ? { publicOrigin: options.publicOrigin } : {}), trackerPath: options.trackerPath ?? '/tracker.js',
    ...(options.mailLink ? { mailLink: options.mailLink } : {}), now,
  });
  const limiter = options.signInRateLimit === false ? undefined : new RateLimiter(options.signInRateLimit ?? { limit: 10, windowMs: 60_000 });
  const assets = loadAssets();
  assets.catch(() => {}); // reported by ready() and by the first request that needs them

  /** Who a live session stands for: its user, or the key it signed in with while that key is still valid. */
  const principalFor = async (session: WebSessionRow, user: UserRow | undefined): Promise<Principal | undefined> => {
    if (user) return { keyId: user.id, ...(user.account_id ? { accountId: user.account_id } : {}) };
    if (session.key_id === communityTag) return { keyId: 'community' };
    if (options.accounts && session.key_id.startsWith('key_')) {
      const accounts = options.accounts;
      const keyId = session.key_id;
      if (!(await accounts.isActive(keyId))) return undefined;
      return { keyId, accountId: session.account_id, stillValid: () => accounts.isActive(keyId) };
    }
    return undefined;
  };

  /** The request's live session, its user and principal; a session whose key was revoked (or whose Community key changed) ends here. */
  const current = async (req: IncomingMessage): Promise<{ session: WebSessionRow; user?: UserRow; principal: Principal } | undefined> => {
    const id = sessionIdOf(req);
    const found = await people.session(id);
    if (!found) return undefined;
    const principal = await principalFor(found.session, found.user);
    if (!principal) {
      await people.endSession(id);
      return undefined;
    }
    return { ...found, principal };
  };

  /** Clears a cookie the browser sent that no longer names a session. */
  const staleCookie = (req: IncomingMessage): Record<string, string> => (sessionIdOf(req) === undefined ? {} : { 'Set-Cookie': clearedSessionCookie() });

  const page = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<number> => {
    const files = await assets;
    const signedIn = await current(req);
    const keyInUrl = carriesKey(url.search);
    // A signed-in browser is sent to the same view without the key, so the address bar drops it.
    if (signedIn) {
      if (keyInUrl) return redirect(req, res, `${base}/${safeView(url.search)}`);
      return sendHtml(req, res, 200, appPage(files, { csrf: signedIn.session.csrf, account: signedIn.user !== undefined }));
    }
    const notice = keyInUrl ? { notice: KEY_IN_URL_NOTICE } : {};
    return sendHtml(req, res, 200, signInPage(files, { view: safeView(url.search), ...notice }), staleCookie(req));
  };

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
    const client = clientIp(req, trustProxy);
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
    let email: string;
    try {
      email = normalEmail(form.get('email') ?? '');
    } catch (error) {
      return sendHtml(req, res, 401, again({ view, error: (error as PeopleError).message }));
    }
    const shown = { view, email };
    const waitMs = await throttle.waitMs(email, client, now());
    if (waitMs > 0) {
      const seconds = String(Math.ceil(waitMs / 1000));
      logger({ level: 'warn', msg: 'dashboard sign-in throttled', wait_s: Number(seconds) });
      return sendHtml(req, res, 429, again({ ...shown, error: MESSAGES.slowDown(seconds) }), { 'Retry-After': seconds });
    }
    const user = await people.checkPassword(email, form.get('password') ?? '');
    const secondFactor = user && user.totp_secret !== '' ? await verifyTotp(people, user, form.get('totp') ?? '', now()) : true;
    if (!user || !secondFactor) {
      await throttle.failed(email, client, now());
      logger({ level: 'warn', msg: 'dashboard sign-in refused', reason: user ? 'totp' : 'password' });
      return sendHtml(req, res, 401, again({ ...shown, error: user ? MESSAGES.totp : MESSAGES.password }));
    }
    await throttle.succeeded(email, client, now());
    logger({ level: 'info', msg: 'dashboard sign-in', user_id: user.id });
    return startSession(req, res, { userId: user.id, accountId: user.account_id }, view);
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
      return redirect(req, res, `${base}/`);
    } catch (error) {
      if (!(error instanceof PeopleError)) throw error;
      return sendHtml(req, res, 400, setPasswordPage(files, token, error.message));
    }
  };

  const asset = async (req: IncomingMessage, res: ServerResponse, name: string): Promise<number> => {
    const files: DashboardAssets = await assets;
    const file = [files.script, files.style, files.icon].find((a) => a.name === name);
    if (!file) return sendJson(req, res, 404, { error: HTTP_MESSAGES.notFound });
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    return send(req, res, 200, gzip ? file.gzipped : file.body, {
      'Content-Type': file.contentType,
      // The name changes with the content: a browser never needs to ask again.
      'Cache-Control': 'public, max-age=31536000, immutable',
      Vary: 'Accept-Encoding',
      ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
    });
  };

  /** `data/sites` (the picker; the API has no such endpoint) or an API path answered for the session's principal. */
  const data = async (req: IncomingMessage, res: ServerResponse, url: URL, rest: string): Promise<number | undefined> => {
    const principal = (await current(req))?.principal;
    if (!principal) return sendJson(req, res, 401, { error: HTTP_MESSAGES.unauthorized }, staleCookie(req));
    if (rest === 'sites') {
      const sites = await options.storage.listSites(principal.accountId === undefined ? undefined : { accountId: principal.accountId });
      const list = sites.map(({ id, name, domain, timezone }) => ({ id, name, domain, timezone }));
      const { capabilities } = options.storage;
      const can = {
        filters: capabilities?.selection === true,
        hours: typeof options.storage.hourBuckets === 'function',
        properties: capabilities?.properties === true,
        goals: capabilities?.goals === true,
      };
      return sendJson(req, res, 200, { sites: list, tracker: options.trackerPath ?? '/tracker.js', can });
    }
    await options.api.serveAs(req, res, principal, `/${rest}${url.search}`);
    return undefined; // logged by the API handler
  };

  /** The account pages: a password session only (a key session gets 403: keys cannot change anything). */
  const accountPages = async (req: IncomingMessage, res: ServerResponse, url: URL, rest: string): Promise<number> => {
    const files = await assets;
    const signedIn = await current(req);
    if (!signedIn) return req.method === 'POST' ? sendJson(req, res, 401, { error: HTTP_MESSAGES.unauthorized }, staleCookie(req)) : redirect(req, res, `${base}/`, staleCookie(req));
    if (!signedIn.user) return sendJson(req, res, 403, { error: 'The account pages need a sign-in with an email and a password; an API key cannot change anything.' });
    return account({ req, res, rest, url, assets: files, session: signedIn.session, user: signedIn.user });
  };

  const route = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<number | undefined> => {
    if (!isHttps(req, trustProxy)) return sendJson(req, res, 403, { error: MESSAGES.https });
    const url = new URL(req.url ?? '/', 'https://localhost');
    const method = req.method ?? 'GET';
    const read = method === 'GET' || method === 'HEAD';
    if (path === `${base}/`) return read ? page(req, res, url) : methodNotAllowed(req, res, 'GET, HEAD');
    if (path === base) return redirect(req, res, `${base}/${safeView(url.search)}`);
    const rest = path.slice(prefix.length);
    if (rest === 'sign-in') return method === 'POST' ? signIn(req, res) : methodNotAllowed(req, res, 'POST');
    if (rest === 'sign-out') return method === 'POST' ? signOut(req, res) : methodNotAllowed(req, res, 'POST');
    if (rest === 'set-password') return read || method === 'POST' ? setPassword(req, res, url) : methodNotAllowed(req, res, 'GET, HEAD, POST');
    if (rest === 'account' || rest.startsWith('account/')) return accountPages(req, res, url, rest.slice('account/'.length));
    if (rest.startsWith('assets/')) return read ? asset(req, res, rest.slice('assets/'.length)) : methodNotAllowed(req, res, 'GET, HEAD');
    if (rest.startsWith('data/')) return read ? data(req, res, url, rest.slice('data/'.length)) : methodNotAllowed(req, res, 'GET, HEAD');
    return sendJson(req, res, 404, { error: HTTP_MESSAGES.notFound });
  };

  const handler = async (req: IncomingMessage, res: ServerResponse, next?: () => void): Promise<void> => {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    const ours = path === `${base}/` || path === base || path.startsWith(prefix);
    if (!ours) {
      if (next) return next();
      sendJson(req, res, 404, { error: HTTP_MESSAGES.notFound });
      return;
    }
    const started = performance.now();
    try {
      const status = await route(req, res, path);
      if (status !== undefined) {
        logger({ level: 'info', msg: 'dashboard request', method: req.method, path: path.slice(0, 2048), status, duration_ms: Math.round((performance.now() - started) * 10) / 10 });
      }
    } catch (error) {
      const requestId = randomUUID();
      logger({ level: 'error', msg: 'dashboard request failed', request_id: requestId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      sendJson(req, res, 500, { error: HTTP_MESSAGES.serverError }, { 'X-Request-Id': requestId });
    }
  };

  return Object.assign(handler, { ready: () => assets.then(() => undefined) });
}

const methodNotAllowed = (req: IncomingMessage, res: ServerResponse, allow: string) =>
  sendJson(req, res, 405, { error: HTTP_MESSAGES.methodNotAllowed }, { Allow: allow });
