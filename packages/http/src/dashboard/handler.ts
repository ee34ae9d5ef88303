/**
 * The dashboard as a Node request listener: the pages, sign-in and sign-out, the assets,
 * and the data, which it reads through the API handler's own pipeline (`ApiHandler.serveAs`)
 * with the session's principal in place of a key.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Storage } from '@siteline/core';
import { type Authenticator, MAX_KEY_LENGTH, type Principal } from '../auth.js';
import { readBody } from '../collect/http-io.js';
import { clientIp } from '../collect/client-ip.js';
import { HTTP_MESSAGES } from '../errors.js';
import { type ApiHandler, isHttps } from '../handler.js';
import { jsonLogger, type Logger } from '../log.js';
import { RateLimiter, type RateLimitOptions } from '../rate-limit.js';
import { type DashboardAssets, loadAssets } from './assets.js';
import {
  clearedSessionCookie, redirect, sameOrigin, send, sendHtml, sendJson, sessionCookie, sessionIdOf,
} from './http-io.js';
import { appPage, carriesKey, KEY_IN_URL_NOTICE, safeView, signInPage } from './pages.js';
import { type SessionOptions, SessionStore } from './sessions.js';

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
  storage: Pick<Storage, 'listSites' | 'capabilities' | 'hourBuckets'>;
  /** Path the dashboard is served at; default `''` (the page is `/`, the rest under `/dashboard/`). */
  basePath?: string;
  /** As for the API: behind a TLS-terminating proxy you control. Also reads `X-Forwarded-Host` for the origin check. */
  trustProxy?: boolean;
  /**
   * The origin browsers use to reach the dashboard (`https://stats.example.com`). Sign-in and
   * sign-out accept only posts whose `Origin` is this; default: `https://` and the request's host.
   */
  publicOrigin?: string;
  /** Idle expiry, maximum age and how many sessions are kept (see `SessionStore`). */
  sessions?: SessionOptions;
  /** Sign-in attempts per client IP; default 10 a minute; `false` turns the limit off. */
  signInRateLimit?: RateLimitOptions | false;
  /** Path of the tracker script shown in the install snippet; default `/tracker.js`. */
  trackerPath?: string;
  logger?: Logger;
  /** Clock, for tests; default `Date.now`. */
  now?: () => number;
}

export type DashboardHandler = ((req: IncomingMessage, res: ServerResponse, next?: () => void) => Promise<void>) & {
  /** Resolves once the assets are loaded (rejects when they are missing). */
  ready(): Promise<void>;
  /** Sessions held now. */
  readonly sessions: number;
};

/** Longest sign-in form body read. */
const MAX_FORM_BYTES = 8192;

const MESSAGES = {
  refused: 'This key was not accepted. Check it and try again.',
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
  const sessions = new SessionStore(options.sessions);
  const limiter = options.signInRateLimit === false ? undefined : new RateLimiter(options.signInRateLimit ?? { limit: 10, windowMs: 60_000 });
  const assets = loadAssets();
  assets.catch(() => {}); // reported by ready() and by the first request that needs them

  /** The session's principal, if the request has a live session whose key is still valid. */
  const principalOf = async (req: IncomingMessage): Promise<Principal | undefined> => {
    const id = sessionIdOf(req);
    const principal = sessions.get(id, now());
    if (!principal) return undefined;
    if (principal.stillValid && !(await principal.stillValid())) {
      sessions.delete(id); // a revoked key ends its sessions at their next request
      return undefined;
    }
    return principal;
  };
  /** Clears a cookie the browser sent that no longer names a session. */
  const staleCookie = (req: IncomingMessage): Record<string, string> => (sessionIdOf(req) === undefined ? {} : { 'Set-Cookie': clearedSessionCookie() });

  const page = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<number> => {
    const files = await assets;
    const principal = await principalOf(req);
    const keyInUrl = carriesKey(url.search);
    // A signed-in browser is sent to the same view without the key, so the address bar drops it.
    if (principal) return keyInUrl ? redirect(req, res, `${base}/${safeView(url.search)}`) : sendHtml(req, res, 200, appPage(files));
    const notice = keyInUrl ? { notice: KEY_IN_URL_NOTICE } : {};
    return sendHtml(req, res, 200, signInPage(files, { view: safeView(url.search), ...notice }), staleCookie(req));
  };

  const signIn = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    const files = await assets;
    if (!sameOrigin(req, trustProxy, options.publicOrigin)) return sendHtml(req, res, 403, signInPage(files, { view: '', error: MESSAGES.origin }));
    if (limiter) {
      const rate = limiter.hit(clientIp(req, trustProxy), now());
      if (!rate.allowed) {
        const seconds = String(rate.resetSeconds);
        return sendHtml(req, res, 429, signInPage(files, { view: '', error: MESSAGES.tooMany(seconds) }), { 'Retry-After': seconds });
      }
    }
    const type = String(req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') return sendHtml(req, res, 415, signInPage(files, { view: '', error: 'Unsupported Media Type' }));
    const body = await readBody(req, MAX_FORM_BYTES);
    if (!body.ok) {
      if (body.reason === 'aborted') return 0;
      return sendHtml(req, res, 413, signInPage(files, { view: '', error: 'Payload Too Large' }), { Connection: 'close' });
    }
    const form = new URLSearchParams(body.text);
    const view = safeView(form.get('view') ?? undefined);
    const key = form.get('key') ?? '';
    const principal = key.length > 0 && key.length <= MAX_KEY_LENGTH ? await options.authenticate(key) : null;
    if (!principal) {
      logger({ level: 'warn', msg: 'dashboard sign-in refused' });
      return sendHtml(req, res, 401, signInPage(files, { view, error: MESSAGES.refused }));
    }
    const id = sessions.create(principal, now());
    logger({ level: 'info', msg: 'dashboard sign-in', key_id: principal.keyId, sessions: sessions.size });
    return redirect(req, res, `${base}/${view}`, { 'Set-Cookie': sessionCookie(id) });
  };

  const signOut = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    if (!sameOrigin(req, trustProxy, options.publicOrigin)) return sendJson(req, res, 403, { error: MESSAGES.origin });
    sessions.delete(sessionIdOf(req));
    return redirect(req, res, `${base}/`, { 'Set-Cookie': clearedSessionCookie() });
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
    const principal = await principalOf(req);
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

  const controls = { ready: () => assets.then(() => undefined) };
  return Object.defineProperty(Object.assign(handler, controls), 'sessions', { get: () => sessions.size }) as DashboardHandler;
}

const methodNotAllowed = (req: IncomingMessage, res: ServerResponse, allow: string) =>
  sendJson(req, res, 405, { error: HTTP_MESSAGES.methodNotAllowed }, { Allow: allow });
