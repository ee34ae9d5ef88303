import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import {
  csvReport,
  ENDPOINT_PATHS,
  type EndpointName,
  MESSAGES,
  openExport,
  parseExportQuery,
  parseQuery,
  REPORTS,
  SiteNotFoundError,
  type Storage,
  UnsupportedQueryError,
  ValidationError,
} from '@siteline/core';
import { type Authenticator, type Principal, presentedKey } from './auth.js';
import { type AuthFailureLimit, authFailureLimit } from './auth-failures.js';
import { HTTP_MESSAGES, HttpError, unauthorized } from './errors.js';
import { EXPORT_PATH, streamExport } from './export-stream.js';
import { jsonLogger, type Logger, requestLogFields } from './log.js';
import { openApiRoute } from './openapi/route.js';
import { RateLimiter, type RateLimitOptions } from './rate-limit.js';
import { parseRequestTarget, type RequestTarget } from './request-target.js';

export interface ApiHandlerOptions {
  storage: Storage;
  /** Decides which keys are valid: `communityAuthenticator(key)` or a Cloud key store. */
  authenticate: Authenticator;
  /** Prefix the API is mounted at; default `/api/v1`. */
  basePath?: string;
  /**
   * Set when a TLS-terminating proxy you control forwards to this server:
   * a request then counts as HTTPS when its `X-Forwarded-Proto` is `https`.
   * Never set it when clients can reach the server directly.
   */
  trustProxy?: boolean;
  /** Per-key request budget (a sliding window); `false` turns rate limiting off. */
  rateLimit?: RateLimitOptions | false;
  /**
   * Failed authentications per client network (see `authFailureLimit`); default 30 a minute;
   * `false` turns the limit off.
   */
  authFailureLimit?: AuthFailureLimit | false;
  /** Structured request and error logs; default JSON lines on stdout/stderr. */
  logger?: Logger;
  /** Clock, for tests; default `Date.now`. */
  now?: () => number;
}

/** A `(req, res)` listener for `node:http`/`node:https` servers and Express-style apps. */
export type ApiHandler = ((req: IncomingMessage, res: ServerResponse, next?: () => void) => Promise<void>) & {
  /** Requests being handled right now (graceful shutdown waits for 0). */
  readonly inFlight: number;
  /**
   * Answers `target` (an API path below `basePath` with its query, e.g. `/stats?site_id=ST-a`)
   * for a principal authenticated another way (the dashboard's session): the same transport
   * check, routing, rate limit, validation, site access, report and log line as a request
   * presenting that principal's key. A key the request carries is not read.
   */
  serveAs(req: IncomingMessage, res: ServerResponse, principal: Principal, target: string): Promise<void>;
  /** The clock that decides "today" for the reports (the `now` option): the dashboard names its dates by it. */
  now(): number;
};

/** A request answered for a principal the caller authenticated (`ApiHandler.serveAs`). */
interface Delegated {
  principal: Principal;
  target: string;
}

/** Longest request target accepted; longer ones get 414. */
export const MAX_URL_LENGTH = 8192;

const ROUTES = new Map<string, EndpointName>(Object.entries(ENDPOINT_PATHS).map(([name, path]) => [path, name as EndpointName]));

/**
 * The read API as a Node request listener: transport check, routing,
 * authentication (after the client's failed-authentication budget), rate limit,
 * validation, site access and the report, in the order of decisions.md section
 * 6, with every error as a JSON body. The log line of each request holds only
 * its parsed path and parameters (`requestLogFields`).
 * Requests outside `basePath` go to `next()` when given (middleware), else 404.
 *
 * @example
 * const handler = createApiHandler({ storage, authenticate: communityAuthenticator(process.env.SERVICE_API_KEY!) });
 * https.createServer({ key, cert }, handler).listen(8443);
 */
export function createApiHandler(options: ApiHandlerOptions): ApiHandler {
  const basePath = (options.basePath ?? '/api/v1').replace(/\/+$/, '');
  const logger = options.logger ?? jsonLogger();
  const now = options.now ?? Date.now;
  const limiter = options.rateLimit === false ? undefined : new RateLimiter(options.rateLimit);
  const failures = authFailureLimit(options.authFailureLimit, options.trustProxy ?? false);
  let inFlight = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse, requestId: string, raw: string, url: RequestTarget | undefined, as?: Delegated): Promise<number> => {
    const headers: Record<string, string> = {};
    try {
      if (!isHttps(req, options.trustProxy ?? false)) throw new HttpError(403, HTTP_MESSAGES.https);
      if (raw.length > MAX_URL_LENGTH) throw new HttpError(414, HTTP_MESSAGES.uriTooLong);
      if (!url) throw new HttpError(400, HTTP_MESSAGES.badRequest);
      const document = openApiRoute(basePath, url.pathname, req.method);
      if (document) return send(req, res, 200, document, headers);
      const endpoint = url.pathname.startsWith(`${basePath}/`) ? ROUTES.get(url.pathname.slice(basePath.length)) : undefined;
      const exporting = url.pathname === `${basePath}${EXPORT_PATH}`;
      if (endpoint === undefined && !exporting) throw new HttpError(404, HTTP_MESSAGES.notFound);
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        throw new HttpError(405, HTTP_MESSAGES.methodNotAllowed, { Allow: 'GET, HEAD' });
      }

      // A delegated request (the dashboard's session) was authenticated by its caller: no key is read.
      if (!as) failures?.refuseSpent(req, now());
      const key = as ? undefined : presentedKey(req, url.searchParams);
      const principal: Principal | null = as ? as.principal : key === undefined ? null : await options.authenticate(key);
      if (!principal) {
        failures?.failed(req, now());
        throw unauthorized();
      }
      if (limiter) {
        const rate = limiter.hit(principal.keyId, now());
        headers['RateLimit-Limit'] = String(rate.limit);
        headers['RateLimit-Remaining'] = String(rate.remaining);
        headers['RateLimit-Reset'] = String(rate.resetSeconds);
        if (!rate.allowed) throw new HttpError(429, HTTP_MESSAGES.tooManyRequests, { 'Retry-After': String(rate.resetSeconds) });
      }

      const reportOptions = { now: now(), accountId: principal.accountId, siteId: principal.siteId };
      // A principal of one site reads reports only; one with forced filters never reads what ignores them.
      if ((endpoint === undefined && principal.siteId !== undefined) || (endpoint === 'live' && (principal.filters?.length ?? 0) > 0)) {
        throw new HttpError(404, HTTP_MESSAGES.notFound);
      }
      if (endpoint === undefined) {
        // GET /export: found and readable site first (errors still JSON), then the stream.
        const exported = await openExport(options.storage, parseExportQuery(url.searchParams), reportOptions);
        if (principal.stillValid && !(await principal.stillValid())) throw unauthorized();
        return await streamExport(req, res, exported, headers);
      }
      const query = parseQuery(endpoint, url.searchParams);
      if (principal.filters) query.filters.push(...principal.filters);
      if (query.format === 'csv' && endpoint !== 'live') {
        const csv = await csvReport(options.storage, endpoint, query, reportOptions);
        if (principal.stillValid && !(await principal.stillValid())) throw unauthorized();
        // The file name has only [A-Za-z0-9.-] (csvReport): safe inside the quoted parameter.
        headers['Content-Disposition'] = `attachment; filename="${csv.filename}"`;
        return sendText(req, res, 200, csv.text, 'text/csv; charset=utf-8', headers);
      }
      const body = await REPORTS[endpoint](options.storage, query, reportOptions);
      if (principal.stillValid && !(await principal.stillValid())) throw unauthorized();
      return send(req, res, 200, body, headers);
    } catch (error) {
      if (error instanceof HttpError) return send(req, res, error.status, { error: error.message }, { ...headers, ...error.headers });
      if (error instanceof ValidationError) return send(req, res, 422, { error: error.message }, headers);
      if (error instanceof SiteNotFoundError) return send(req, res, 404, { error: error.message }, headers);
      if (error instanceof UnsupportedQueryError) {
        // Refused, never answered wrongly: the client learns the server cannot answer it, the log says which capability is missing.
        logger({ level: 'warn', msg: 'query refused', request_id: requestId, reason: error.message });
        return send(req, res, 422, { error: MESSAGES.unsupported }, headers);
      }
      logger({ level: 'error', msg: 'request failed', request_id: requestId, error: errorDetail(error) });
      return send(req, res, 500, { error: HTTP_MESSAGES.serverError }, headers);
    }
  };

  const handler = async (req: IncomingMessage, res: ServerResponse, next?: () => void) => {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    if (next && path !== basePath && !path.startsWith(`${basePath}/`)) return next();
    return run(req, res);
  };
  const run = async (req: IncomingMessage, res: ServerResponse, as?: Delegated) => {
    const started = performance.now();
    const requestId = randomUUID();
    res.setHeader('X-Request-Id', requestId);
    inFlight++;
    try {
      const raw = as ? basePath + as.target : (req.url ?? '/');
      const target = raw.length > MAX_URL_LENGTH ? undefined : parseRequestTarget(raw);
      const status = await handle(req, res, requestId, raw, target, as);
      // Only what was parsed is logged: never the raw target (a fragment, a key under another spelling).
      logger({
        level: 'info',
        msg: 'request',
        request_id: requestId,
        method: req.method,
        ...requestLogFields(target),
        ...(as ? { via: 'session' } : {}),
        status,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
      });
    } finally {
      inFlight--;
    }
  };
  const serveAs = (req: IncomingMessage, res: ServerResponse, principal: Principal, target: string) => run(req, res, { principal, target });
  return Object.defineProperty(Object.assign(handler, { serveAs, now }), 'inFlight', { get: () => inFlight }) as ApiHandler;
}

/** Whether the request came over HTTPS (with `trustProxy`: the proxy's `X-Forwarded-Proto` says so). */
export function isHttps(req: IncomingMessage, trustProxy: boolean): boolean {
  if (trustProxy) {
    const proto = req.headers['x-forwarded-proto'];
    const first = (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0]?.trim().toLowerCase();
    return first === 'https';
  }
  return (req.socket as TLSSocket).encrypted === true;
}

function send(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): number {
  return sendText(req, res, status, JSON.stringify(body), 'application/json; charset=utf-8', headers);
}

function sendText(req: IncomingMessage, res: ServerResponse, status: number, text: string, contentType: string, headers: Record<string, string>): number {
  if (res.headersSent) return status;
  res.writeHead(status, {
    ...headers,
    'Content-Type': contentType,
    'Cache-Control': 'private, no-store',
    'Content-Length': String(Buffer.byteLength(text)),
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : text);
  return status;
}

function errorDetail(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
}
