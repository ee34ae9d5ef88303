/**
 * The dashboard's response headers, cookie and origin rules, written once.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Every asset comes from this server; no inline script or style (style changes made by the
 * app go through the CSSOM, which CSP allows); nothing may frame the dashboard (a shared
 * link's pages: the origins its owner listed, `embeddedBy`); forms post only here; no
 * `<base>` can redirect relative URLs.
 */
const policy = (frameAncestors: string) => [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "form-action 'self'",
  `frame-ancestors ${frameAncestors}`,
  "base-uri 'none'",
].join('; ');

export const CONTENT_SECURITY_POLICY = policy("'none'");

/**
 * The headers that let pages of the listed origins frame a response (a shared link's
 * allow-list, checked by `frameAncestor`): the CSP with those origins as `frame-ancestors`,
 * and no `X-Frame-Options` (its DENY would win in older browsers). None listed: nothing changes.
 * @example send(req, res, 200, page, embeddedBy(['https://blog.example.com']))
 */
export function embeddedBy(origins: readonly string[]): Record<string, string> {
  return origins.length === 0 ? {} : { 'Content-Security-Policy': policy(origins.join(' ')), 'X-Frame-Options': '' };
}

/**
 * Headers of every dashboard response. `Referrer-Policy: same-origin`, not `no-referrer`:
 * with `no-referrer` Chromium sends `Origin: null` on form posts, and sign-in checks `Origin`.
 * The dashboard makes no request to another origin anyway (CSP).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** The session cookie. `__Host-`: the browser accepts it only with `Secure`, `Path=/` and no `Domain`. */
export const SESSION_COOKIE = '__Host-siteline_session';

/** `Set-Cookie` value starting a session: not readable by scripts, HTTPS only, never sent by another site. */
export const sessionCookie = (id: string) => `${SESSION_COOKIE}=${id}; HttpOnly; Secure; SameSite=Strict; Path=/`;

/** `Set-Cookie` value removing the session cookie. */
export const clearedSessionCookie = () => `${SESSION_COOKIE}=; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=0`;

/** The value of the cookie `name` a request's `Cookie` header carries, if any (the first one; cookies are bounded by Node's header limit). */
export function cookieOf(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The session id a request's `Cookie` header carries, if any. */
export const sessionIdOf = (req: IncomingMessage): string | undefined => cookieOf(req, SESSION_COOKIE);

/**
 * Whether a state-changing request (sign-in, sign-out) comes from a page of this server:
 * its `Origin` must name this server, as the configured public origin or as `https://` and
 * the host the request was sent to (with `trustProxy`, the proxy's `X-Forwarded-Host` when it
 * sets one). Either is this server: a page elsewhere sends its own origin, and the browser
 * reached this host only through its certificate. So `PUBLIC_URL=https://localhost:8443`
 * (what `siteline start` writes) still lets `https://127.0.0.1:8443/` sign in. A missing
 * `Origin` is refused: every browser sends it on a form post.
 */
export function sameOrigin(req: IncomingMessage, trustProxy: boolean, publicOrigin?: string): boolean {
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return false;
  if (publicOrigin !== undefined && origin === publicOrigin) return true;
  const forwarded = trustProxy ? firstValue(req.headers['x-forwarded-host']) : undefined;
  const host = forwarded ?? req.headers.host;
  return host !== undefined && origin === `https://${host.toLowerCase()}`;
}

const firstValue = (header: string | string[] | undefined) => (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim() || undefined;

/** Sends a complete response with the dashboard's headers; `HEAD` gets no body. */
export function send(req: IncomingMessage, res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string>): number {
  if (res.headersSent) return status;
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  // A header given as '' is left out (embeddedBy drops X-Frame-Options that way).
  const all = Object.fromEntries(Object.entries({ ...SECURITY_HEADERS, ...headers }).filter(([, value]) => value !== ''));
  res.writeHead(status, { ...all, 'Content-Length': String(bytes.length) });
  res.end(req.method === 'HEAD' ? undefined : bytes);
  return status;
}

/** An HTML page that reflects the session: never cached. */
export const sendHtml = (req: IncomingMessage, res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}) =>
  send(req, res, status, html, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...headers });

/** A JSON body for the dashboard's own routes (the API's errors look the same). */
export const sendJson = (req: IncomingMessage, res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  send(req, res, status, JSON.stringify(body), { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'private, no-store', ...headers });

/** `303 See Other` after a form post, so reloading the page does not post again. */
export const redirect = (req: IncomingMessage, res: ServerResponse, location: string, headers: Record<string, string> = {}) =>
  send(req, res, 303, '', { Location: location, 'Cache-Control': 'no-store', ...headers });
