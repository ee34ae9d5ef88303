/**
 * HTTP Strict Transport Security (RFC 6797): every answer given over HTTPS tells the browser
 * to use only HTTPS for this host for `max-age` seconds, so a later `http://` link or a
 * network attacker cannot downgrade a signed-in browser to plain HTTP (whose request the
 * server refuses anyway, but after the cookie-less request has left the browser). Not
 * `includeSubDomains`: other hosts under the same domain are not this server's to decide.
 */
import type http from 'node:http';
import type { TLSSocket } from 'node:tls';
import { isHttps } from './handler.js';

/** A year, the least the HSTS preload list accepts; `HSTS_MAX_AGE_SECONDS`. 0 makes browsers forget a stored policy (a development host). */
export const DEFAULT_HSTS_MAX_AGE_SECONDS = 31_536_000;

/** The header's value. */
export const hstsHeader = (maxAgeSeconds: number) => `max-age=${maxAgeSeconds}`;

/**
 * Wraps a request listener so that every answer to a request that came over HTTPS (with
 * `trustProxy`, one whose `X-Forwarded-Proto` says https) carries the header; plain HTTP
 * answers never do (RFC 6797 section 7.2: a browser ignores it there anyway).
 * @example http.createServer(withHsts(listener, { trustProxy: false, maxAgeSeconds: DEFAULT_HSTS_MAX_AGE_SECONDS }))
 */
export function withHsts(listener: http.RequestListener, options: { trustProxy: boolean; maxAgeSeconds: number }): http.RequestListener {
  const value = hstsHeader(options.maxAgeSeconds);
  return (req, res) => {
    if (isHttps(req, options.trustProxy)) res.setHeader('Strict-Transport-Security', value);
    listener(req, res);
  };
}

/** The header for an answer written straight on a socket (a request Node's parser refused): on a TLS connection only. */
export const rawHstsHeader = (socket: unknown, maxAgeSeconds: number): Record<string, string> =>
  (socket as TLSSocket).encrypted === true ? { 'Strict-Transport-Security': hstsHeader(maxAgeSeconds) } : {};
