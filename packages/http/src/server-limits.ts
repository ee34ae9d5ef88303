/**
 * What the standalone server bounds before any handler runs: how many connections it keeps
 * (in all and per client network), how long a client may take to finish the TLS handshake,
 * its headers and its whole request, and how long an idle keep-alive connection stays open.
 * Also the protocol errors Node's parser answers by itself: here they get the contract's JSON
 * error body (`{"error": ...}`) wherever an HTTP answer can still be written.
 */
import type http from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { AuthFailureLimit } from './auth-failures.js';
import { clientNetwork, normalizeIp } from './collect/client-ip.js';
import type { BeaconLimit } from './collect/beacon-limit.js';
import { rawHstsHeader } from './hsts.js';
import { HTTP_MESSAGES } from './errors.js';

/** The limits a deployment sets (`.env`, see the README's "Limits a deployment should set"). */
export interface ServerLimits {
  /** Open connections at once (`server.maxConnections`); more are closed as they arrive. 0: no cap. */
  maxConnections: number;
  /** Open connections per client network (direct TLS only; behind a proxy every connection is the proxy's). 0: no cap. */
  maxConnectionsPerIp: number;
  /** Time to finish the TLS handshake after connecting. */
  handshakeTimeoutMs: number;
  /** Time to send a request's headers. */
  headersTimeoutMs: number;
  /** Time to send a whole request, body included (at least `headersTimeoutMs`). */
  requestTimeoutMs: number;
  /** Idle time after which a keep-alive connection is closed. */
  keepAliveTimeoutMs: number;
  /** Beacons per client network and minute. 0: no limit. */
  beaconsPerMinutePerIp: number;
  /** Failed authentications per client network and minute. 0: no limit. */
  authFailuresPerMinutePerIp: number;
  /** Memory for the collector's open sessions, in MiB (estimated). */
  openSessionsMb: number;
}

/**
 * Options for `http.createServer`/`https.createServer` that can only be given at creation.
 * Timeouts are checked every second (Node's default is 30 s, which would let a 10-second
 * limit run to 40), or more often for shorter ones. Node's own answer to a request without
 * `Host` (400, no body) is turned off: `guardRequests` answers it with a JSON body.
 * @example https.createServer({ ...tls, ...serverOptions(config.limits) }, guardRequests(listener))
 */
export function serverOptions(limits: ServerLimits): http.ServerOptions & { handshakeTimeout: number } {
  const shortest = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    handshakeTimeout: limits.handshakeTimeoutMs,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(shortest / 4))),
    requireHostHeader: false,
  };
}

/**
 * Applies the connection caps and the keep-alive timeout, and answers protocol errors with
 * JSON: malformed requests (400), headers over Node's 16 KiB (431), chunk extensions over
 * its limit (413), requests not finished in time (408), an `Expect` other than
 * `100-continue` (417) and `CONNECT` (405). What gets no answer: connections over a cap and
 * TLS handshakes that fail or time out (plain HTTP sent to the HTTPS port included: closed
 * before there is a TLS session to answer in), and an error after a response has begun on
 * that connection (another status line would corrupt it).
 * Those answers carry `Strict-Transport-Security` on a TLS connection when `hstsMaxAgeSeconds` is given (hsts.ts).
 * @example applyServerLimits(server, config.limits, { trustProxy: config.trustProxy, hstsMaxAgeSeconds: config.hstsMaxAgeSeconds });
 */
export function applyServerLimits(server: http.Server, limits: ServerLimits, options: { trustProxy: boolean; hstsMaxAgeSeconds?: number }): void {
  const hsts = (socket: Socket) => (options.hstsMaxAgeSeconds === undefined ? {} : rawHstsHeader(socket, options.hstsMaxAgeSeconds));
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  if (limits.maxConnectionsPerIp > 0 && !options.trustProxy) capPerClient(server, limits.maxConnectionsPerIp);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // As Node does: answer only if nothing of a response was written on this connection yet.
    const response = (socket as Socket & { _httpMessage?: http.ServerResponse | null })._httpMessage;
    if (socket.writable && !response?.headersSent) socket.write(rawJson(...clientErrorAnswer(error.code), hsts(socket)));
    socket.destroy();
  });
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = JSON.stringify({ error: HTTP_MESSAGES.expectationFailed });
    res.writeHead(417, { ...JSON_HEADERS, ...hsts(req.socket), 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' }).end(body);
  });
  server.on('connect', (_req: http.IncomingMessage, socket: Socket) => {
    socket.end(rawJson(405, HTTP_MESSAGES.methodNotAllowed, { Allow: 'GET, HEAD, POST, OPTIONS', ...hsts(socket) }));
  });
}

/**
 * Wraps the server's request listener with the checks `serverOptions` took from Node:
 * an HTTP/1.1 request without `Host` gets 400 with a JSON body (RFC 9112 section 3.2).
 * @example https.createServer({ ...tls, ...serverOptions(limits) }, guardRequests((req, res) => api(req, res)))
 */
export function guardRequests(listener: http.RequestListener): http.RequestListener {
  return (req, res) => {
    if (req.httpVersion === '1.1' && req.headers.host === undefined) {
      const body = JSON.stringify({ error: HTTP_MESSAGES.badRequest });
      res.writeHead(400, { ...JSON_HEADERS, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' }).end(body);
      return;
    }
    listener(req, res);
  };
}

/** The API and collector options that carry `limits`. */
export function handlerLimits(limits: ServerLimits): {
  api: { authFailureLimit: AuthFailureLimit | false };
  collect: { beaconLimit: BeaconLimit | false; openSessionsBytes: number };
} {
  const perMinute = (limit: number) => (limit === 0 ? false : { limit, windowMs: 60_000 });
  return {
    api: { authFailureLimit: perMinute(limits.authFailuresPerMinutePerIp) },
    collect: { beaconLimit: perMinute(limits.beaconsPerMinutePerIp), openSessionsBytes: limits.openSessionsMb * 1024 * 1024 },
  };
}

const JSON_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const;

/** The status and message for an error of Node's HTTP parser or its request timer. */
function clientErrorAnswer(code: string | undefined): [number, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, HTTP_MESSAGES.headersTooLarge];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, HTTP_MESSAGES.payloadTooLarge];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, HTTP_MESSAGES.requestTimeout];
    default:
      return [400, HTTP_MESSAGES.badRequest];
  }
}

/** A whole HTTP/1.1 response with a JSON error body, for a socket no `ServerResponse` writes to. */
function rawJson(status: number, message: string, headers: Record<string, string> = {}): string {
  const body = JSON.stringify({ error: message });
  const lines = Object.entries({ ...JSON_HEADERS, ...headers, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' });
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`;
}

/**
 * Closes a new connection at once when its client network already has `max` open, so one
 * client cannot hold every connection the server may keep.
 */
function capPerClient(server: http.Server, max: number): void {
  const open = new Map<string, number>();
  // Before the TLS layer's own listener: a refused connection costs no handshake.
  server.prependListener('connection', (socket: Socket) => {
    const client = clientNetwork(normalizeIp(socket.remoteAddress ?? ''));
    const count = open.get(client) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(client, count + 1);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left === 0) open.delete(client);
      else open.set(client, left);
    });
  });
}
