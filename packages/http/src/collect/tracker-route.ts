/**
 * `GET /tracker.js`: the script, gzipped when the client accepts it, with an ETag so
 * browsers revalidate cheaply.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { CORS_HEADERS } from './http-io.js';
import { TRACKER_SCRIPT } from './tracker-script.js';

const plain = Buffer.from(TRACKER_SCRIPT, 'utf8');
const gzipped = gzipSync(plain, { level: 9 });
const etag = `"${createHash('sha256').update(plain).digest('base64url').slice(0, 16)}"`;

/**
 * Serves the tracker script (GET or HEAD).
 * @example if (path === '/tracker.js') return serveTracker(req, res);
 */
export function serveTracker(req: IncomingMessage, res: ServerResponse): number {
  const headers: Record<string, string> = {
    ...CORS_HEADERS,
    'Content-Type': 'text/javascript; charset=utf-8',
    // An hour: sites pick up a new version the same day, browsers don't ask on every page.
    'Cache-Control': 'public, max-age=3600',
    ETag: etag,
    Vary: 'Accept-Encoding',
    'X-Content-Type-Options': 'nosniff',
  };
  if (String(req.headers['if-none-match'] ?? '').includes(etag)) {
    res.writeHead(304, headers);
    res.end();
    return 304;
  }
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const body = gzip ? gzipped : plain;
  if (gzip) headers['Content-Encoding'] = 'gzip';
  headers['Content-Length'] = String(body.length);
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
  return 200;
}
