/**
 * The dashboard as a Node request listener: the pages, sign-in and sign-out, the assets,
 * and the data, which it reads through the API handler's own pipeline (`ApiHandler.serveAs`)
 * with the session's principal in place of a key. The parts: sessions.ts (who a request
 * is), sign-in.ts (sign-in, sign-out, set-password), data.ts (assets, data), the account
 * pages in people/routes.ts; this file routes between them and logs.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EmailReports, SharedLinks, SignInThrottle } from '@siteline/core';
import { HTTP_MESSAGES } from '../errors.js';
import { isHttps } from '../handler.js';
import { jsonLogger } from '../log.js';
import { unsubscribeRoute } from '../email-reports/unsubscribe.js';
import { passwordCheck } from '../people/password-check.js';
import { accountRoutes } from '../people/routes.js';
import { loggedPath, shareRoutes } from '../share/routes.js';
import { loadAssets } from './assets.js';
import { dataRoutes } from './data.js';
import { redirect, sendHtml, sendJson } from './http-io.js';
import type { DashboardContext, DashboardHandler, DashboardHandlerOptions } from './options.js';
import { appPage, carriesKey, KEY_IN_URL_NOTICE, NOTICES, safeView, signInPage, withoutNotice } from './pages.js';
import { sessionLookup } from './sessions.js';
import { signInRoutes } from './sign-in.js';

export type { DashboardHandler, DashboardHandlerOptions } from './options.js';

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
  const communityTag = options.communityKeyTag ?? 'community';
  const assets = loadAssets();
  assets.catch(() => {}); // reported by ready() and by the first request that needs them
  const throttle = new SignInThrottle(people.store, options.throttle);
  const ctx: DashboardContext = { options, base, now, logger, trustProxy, people, throttle, assets, ...sessionLookup(people, communityTag, options.accounts) };
  const { current, staleCookie } = ctx;
  const links = options.shares ? new SharedLinks(options.shares, people, { now, throttle }) : undefined;
  const reports = options.emailReports ? new EmailReports(options.emailReports, { now }) : undefined;
  const account = accountRoutes({
    people, storage: options.storage, ...(options.accounts ? { accounts: options.accounts } : {}), trustProxy,
    ...(options.publicOrigin ? { publicOrigin: options.publicOrigin } : {}), trackerPath: options.trackerPath ?? '/tracker.js',
    ...(options.mailLink ? { mailLink: options.mailLink } : {}), now, reportNow: () => options.api.now(), checkPassword: passwordCheck(people, throttle, trustProxy, now),
    ...(links && reports ? { sharing: { links, reports, mail: options.mailsReports ?? false } } : {}),
  });
  const { signIn, signOut, setPassword } = signInRoutes(ctx, communityTag);
  const { asset, data } = dataRoutes(ctx);
  const sharePrefix = `${base}/share/`;
  const shared = links ? shareRoutes(ctx, links) : undefined;
  const unsubscribe = reports ? unsubscribeRoute(reports, options.storage, assets) : undefined;

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
    const said = NOTICES[url.searchParams.get('notice') ?? ''];
    return sendHtml(req, res, 200, signInPage(files, { view: safeView(withoutNotice(url.search)), ...notice, ...(said ? { info: said } : {}) }), staleCookie(req));
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
    if (!isHttps(req, trustProxy)) return sendJson(req, res, 403, { error: HTTP_MESSAGES.https });
    const url = new URL(req.url ?? '/', 'https://localhost');
    const method = req.method ?? 'GET';
    const read = method === 'GET' || method === 'HEAD';
    if (path === `${base}/`) return read ? page(req, res, url) : methodNotAllowed(req, res, 'GET, HEAD');
    if (path === base) return redirect(req, res, `${base}/${safeView(url.search)}`);
    if (path.startsWith(sharePrefix)) return shared ? shared(req, res, url, path.slice(sharePrefix.length)) : sendJson(req, res, 404, { error: HTTP_MESSAGES.notFound });
    const rest = path.slice(prefix.length);
    if (rest === 'sign-in') return method === 'POST' ? signIn(req, res) : methodNotAllowed(req, res, 'POST');
    if (rest === 'sign-out') return method === 'POST' ? signOut(req, res) : methodNotAllowed(req, res, 'POST');
    if (rest === 'set-password') return read || method === 'POST' ? setPassword(req, res, url) : methodNotAllowed(req, res, 'GET, HEAD, POST');
    if (rest === 'account' || rest.startsWith('account/')) return accountPages(req, res, url, rest.slice('account/'.length));
    if (rest === 'unsubscribe' && unsubscribe) return unsubscribe(req, res, url);
    if (rest.startsWith('assets/')) return read ? asset(req, res, rest.slice('assets/'.length)) : methodNotAllowed(req, res, 'GET, HEAD');
    if (rest.startsWith('data/')) return read ? data(req, res, url, rest.slice('data/'.length)) : methodNotAllowed(req, res, 'GET, HEAD');
    return sendJson(req, res, 404, { error: HTTP_MESSAGES.notFound });
  };

  const handler = async (req: IncomingMessage, res: ServerResponse, next?: () => void): Promise<void> => {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    const ours = path === `${base}/` || path === base || path.startsWith(prefix) || path.startsWith(`${base}/share/`);
    if (!ours) {
      if (next) return next();
      sendJson(req, res, 404, { error: HTTP_MESSAGES.notFound });
      return;
    }
    const started = performance.now();
    try {
      const status = await route(req, res, path);
      if (status !== undefined) {
        logger({ level: 'info', msg: 'dashboard request', method: req.method, path: loggedPath(path, base).slice(0, 2048), status, duration_ms: Math.round((performance.now() - started) * 10) / 10 });
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
