/**
 * A shared link's routes, under `{base}/share/<token>/`: the page (the dashboard of the
 * link's site, or its password form), the password post, and the data, which goes through
 * the API handler's pipeline (`serveAs`) as a principal of that one site, carrying the
 * link's segment. The token in the path authenticates every request, so a link without a
 * password needs no cookie (an embed in another site's frame gets none); a password link
 * also needs the session cookie its password gave, scoped to the link's path. Every request
 * looks the link up again: a revoked link fails at once, for every page and session.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ENDPOINT_PATHS, type SharedLinkRow, type SharedLinks } from '@siteline/core';
import type { Principal } from '../auth.js';
import { clientIp, clientNetwork } from '../collect/client-ip.js';
import { siteInfo, storageCan } from '../dashboard/data.js';
import { savedFunnels } from '../dashboard/saved-funnels.js';
import { cookieOf, embeddedBy, redirect, sameOrigin, sendHtml, sendJson } from '../dashboard/http-io.js';
import type { DashboardContext } from '../dashboard/options.js';
import { safeView, THEMES, type Theme } from '../dashboard/pages.js';
import { HTTP_MESSAGES } from '../errors.js';
import { readForm } from '../people/form.js';
import { RateLimiter } from '../rate-limit.js';
import { type ShareLook, shareGonePage, sharePasswordPage, sharedAppPage } from './pages.js';

/** The cookie of a password link's session: `__Secure-` (HTTPS only), scoped to the link's own path. */
export const SHARE_COOKIE = '__Secure-siteline_share';

const REPORT_PATHS = new Set<string>(Object.values(ENDPOINT_PATHS));

const MESSAGES = {
  password: 'The password is not right.',
  slowDown: (seconds: string) => `Too many wrong passwords for this link. Try again in ${seconds} second${seconds === '1' ? '' : 's'}.`,
  tooMany: (seconds: string) => `Too many attempts from this address. Try again in ${seconds} second${seconds === '1' ? '' : 's'}.`,
  origin: 'This form must be sent from this server\'s own page.',
} as const;

/**
 * A request path as logs show it: a share token replaced by `…`, so no log holds a working link.
 * @example loggedPath('/share/q3V0…/dashboard/data/stats', '') // '/share/…/dashboard/data/stats'
 */
export function loggedPath(path: string, base: string): string {
  const prefix = `${base}/share/`;
  if (!path.startsWith(prefix)) return path;
  const slash = path.indexOf('/', prefix.length);
  return `${prefix}…${slash < 0 ? '' : path.slice(slash)}`;
}

/** How the page is asked to look: `embed=true`, `theme=light|dark|system` (anything else: light). */
function lookOf(url: URL): ShareLook {
  const theme = url.searchParams.get('theme');
  return { embed: url.searchParams.get('embed') === 'true', theme: THEMES.includes(theme as Theme) ? (theme as Theme) : 'light' };
}

/** Answers a request below `{base}/share/` (`rest`); returns its status (undefined when the API handler answered and logged it). */
export function shareRoutes(ctx: DashboardContext, links: SharedLinks): (req: IncomingMessage, res: ServerResponse, url: URL, rest: string) => Promise<number | undefined> {
  const { options, base, now, logger, trustProxy, assets } = ctx;
  const limiter = options.signInRateLimit === false ? undefined : new RateLimiter(options.signInRateLimit ?? { limit: 10, windowMs: 60_000 });
  const cookiePath = (token: string) => `${base}/share/${token}/`;
  const sessionCookie = (token: string, id: string) => `${SHARE_COOKIE}=${id}; HttpOnly; Secure; SameSite=Lax; Path=${cookiePath(token)}`;

  /** Whether the request may read the link's dashboard: no password, or a live session of this link. */
  const admitted = async (req: IncomingMessage, link: SharedLinkRow) => link.password_hash === '' || links.hasSession(link, cookieOf(req, SHARE_COOKIE));

  const page = async (req: IncomingMessage, res: ServerResponse, url: URL, link: SharedLinkRow, siteName: string): Promise<number> => {
    const files = await assets;
    const look = lookOf(url);
    if (!(await admitted(req, link))) return sendHtml(req, res, 200, sharePasswordPage(files, siteName, safeView(url.search), look));
    // Only a link without a password may be framed, and only by the origins its owner listed.
    return sendHtml(req, res, 200, sharedAppPage(files, link, siteName, look), embeddedBy(link.password_hash === '' ? link.frame_ancestors : []));
  };

  const password = async (req: IncomingMessage, res: ServerResponse, url: URL, link: SharedLinkRow, token: string, siteName: string): Promise<number> => {
    const files = await assets;
    const look = lookOf(url);
    const again = (status: number, view: string, error: string, headers: Record<string, string> = {}) =>
      sendHtml(req, res, status, sharePasswordPage(files, siteName, view, look, error), headers);
    if (!sameOrigin(req, trustProxy, options.publicOrigin)) return again(403, '', MESSAGES.origin);
    // Counted by network, as sign-in counts: an IPv6 client by its /64.
    const client = clientNetwork(clientIp(req, trustProxy));
    const rate = limiter?.hit(client, now());
    if (rate && !rate.allowed) return again(429, '', MESSAGES.tooMany(String(rate.resetSeconds)), { 'Retry-After': String(rate.resetSeconds) });
    const form = await readForm(req);
    if (form === 0) return 0;
    if (typeof form === 'number') return again(form, '', form === 413 ? 'Payload Too Large' : 'Unsupported Media Type');
    const view = safeView(form.get('view') ?? undefined);
    if (link.password_hash === '') return redirect(req, res, `${cookiePath(token)}${view}`);
    // The sign-in throttle, per link and client network and per link: the guess is counted before its hash.
    const checked = await links.checkPassword(link, form.get('password') ?? '', client);
    if (!checked.right && checked.waitMs !== undefined) {
      const seconds = String(Math.ceil(checked.waitMs / 1000));
      logger({ level: 'warn', msg: 'shared link password throttled', link_id: link.id, wait_s: Number(seconds) });
      return again(429, view, MESSAGES.slowDown(seconds), { 'Retry-After': seconds });
    }
    if (!checked.right) {
      logger({ level: 'warn', msg: 'shared link password refused', link_id: link.id });
      return again(401, view, MESSAGES.password);
    }
    await links.endSession(cookieOf(req, SHARE_COOKIE));
    const id = await links.startSession(link);
    logger({ level: 'info', msg: 'shared link opened with its password', link_id: link.id });
    return redirect(req, res, `${cookiePath(token)}${view}`, { 'Set-Cookie': sessionCookie(token, id) });
  };

  const data = async (req: IncomingMessage, res: ServerResponse, url: URL, link: SharedLinkRow, token: string, rest: string): Promise<number | undefined> => {
    if (!(await admitted(req, link))) return sendJson(req, res, 401, { error: HTTP_MESSAGES.unauthorized });
    if (rest === 'sites') {
      const site = await options.storage.getSite(link.site_id);
      if (!site) return sendJson(req, res, 401, { error: HTTP_MESSAGES.unauthorized });
      return sendJson(req, res, 200, { sites: [await siteInfo(options.storage, site)], tracker: options.trackerPath ?? '/tracker.js', can: storageCan(options.storage), now: options.api.now(), you: 'shared link', segment: link.segment });
    }
    const principal: Principal = {
      // Each viewer of a link has the budget of a key: one busy public dashboard does not starve the others.
      keyId: `${link.id}@${clientNetwork(clientIp(req, trustProxy))}`,
      siteId: link.site_id,
      filters: link.segment,
      stillValid: async () => (await links.open(token)) !== undefined,
    };
    // The Funnels panel's picker: the names and steps of the site's saved funnels, as a signed-in viewer gets them.
    if (rest === 'saved-funnels') return savedFunnels(req, res, options.storage, principal, url.searchParams.get('site_id') ?? '');
    if (!REPORT_PATHS.has(`/${rest}`)) return sendJson(req, res, 404, { error: HTTP_MESSAGES.notFound });
    await options.api.serveAs(req, res, principal, `/${rest}${url.search}`);
    return undefined;
  };

  return async (req, res, url, rest) => {
    const method = req.method ?? 'GET';
    const read = method === 'GET' || method === 'HEAD';
    const slash = rest.indexOf('/');
    const token = slash < 0 ? rest : rest.slice(0, slash);
    const below = slash < 0 ? undefined : rest.slice(slash + 1);
    const isData = below?.startsWith('dashboard/data/') === true;
    const link = await links.open(token);
    const site = link && (await options.storage.getSite(link.site_id));
    if (!link || !site) {
      if (isData) return sendJson(req, res, 401, { error: HTTP_MESSAGES.unauthorized });
      return sendHtml(req, res, 404, shareGonePage(await assets, below === undefined ? '../' : '../../'));
    }
    if (below === undefined) return read ? redirect(req, res, `${cookiePath(token)}${url.search}`) : notAllowed(req, res, 'GET, HEAD');
    if (below === '') return read ? page(req, res, url, link, site.name) : notAllowed(req, res, 'GET, HEAD');
    if (below === 'password') return method === 'POST' ? password(req, res, url, link, token, site.name) : notAllowed(req, res, 'POST');
    if (isData) return read ? data(req, res, url, link, token, below.slice('dashboard/data/'.length)) : notAllowed(req, res, 'GET, HEAD');
    return sendJson(req, res, 404, { error: HTTP_MESSAGES.notFound });
  };
}

const notAllowed = (req: IncomingMessage, res: ServerResponse, allow: string) =>
  sendJson(req, res, 405, { error: HTTP_MESSAGES.methodNotAllowed }, { Allow: allow });
