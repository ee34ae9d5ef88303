/**
 * Collection beside the read API: `GET /tracker.js` and `POST /collect`. Unauthenticated on
 * purpose (any page may post a beacon), so it only ever appends events, and every input is
 * bounded before it costs anything.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Backend } from '@siteline/core';
import type { DatabaseLocation } from '../database-url.js';
import { jsonLogger, type Logger } from '../log.js';
import { type BatchOptions, BatchWriter } from './batch-writer.js';
import { type BeaconLimit, beaconLimit } from './beacon-limit.js';
import { clientIp } from './client-ip.js';
import { CollectThread } from './collect-thread.js';
import { type BeaconSink, type CollectOutcome, Collector } from './collector.js';
import { acceptedContentType, PREFLIGHT_HEADERS, readBody, sendAccepted, sendJson } from './http-io.js';
import { MAX_BODY_BYTES, parseCollectBody } from './payload.js';
import { SiteCache } from './site-cache.js';
import { CollectStats } from './stats.js';
import type { SpoolConfig } from './thread-protocol.js';
import { serveTracker } from './tracker-route.js';

export interface CollectHandlerOptions {
  /**
   * Where sites are read (`storage.getSite`), events written (`storage.writeEvents`) and the
   * daily salts of visitor ids kept (`salts`): the backend, e.g. `openSqliteBackend(file)` or
   * the one `openBackend` returns. Salts in the backend are what keeps one visitor one
   * visitor across restarts and processes.
   */
  backend: { storage: Pick<Backend['storage'], 'getSite' | 'writeEvents'>; salts: Backend['salts'] };
  /**
   * Set when a proxy you control forwards to this server: the client IP is then the
   * left-most address of `X-Forwarded-For`. Otherwise the header is ignored.
   */
  trustProxy?: boolean;
  /** Errors and a per-minute summary of accepted and dropped beacons; default JSON lines. */
  logger?: Logger;
  /**
   * Group commits: at most `maxEvents` per write (default 500); each beacon is answered once the
   * write holding it is durable. Through the spool, `maxDelayMs` is how long beacons gather in
   * it before one insert (the server's `COLLECT_BATCH_MS`).
   */
  batch?: BatchOptions;
  /**
   * With `worker` on a backend that writes through a spool (ClickHouse, `Storage.planWrite`):
   * the directory where accepted beacons are appended and fsynced before their 202, and sent on
   * from (replayed at the next start after a crash), and the bytes it may hold (the server's
   * `COLLECT_SPOOL_DIR`, `COLLECT_SPOOL_MB`). One process owns a spool directory at a time.
   * Without it such a backend's beacons are answered once inserted.
   */
  spool?: SpoolConfig;
  /** Clock, for tests; default `Date.now`. */
  now?: () => number;
  /** Prefix the two routes are mounted at; default `''` (`/collect`, `/tracker.js`). */
  basePath?: string;
  /**
   * Derive and write events on a worker thread that opens this location again (role
   * `collect`, its own connection); the standalone server does this for backends whose
   * `capabilities.writerThread` says so (ClickHouse, with `spool`), so an fsync or a slow
   * server never holds up this thread. Default: everything in this thread, through
   * `backend.storage` (SQLite: a commit of a few beacons costs less than the trip to a worker).
   */
  worker?: DatabaseLocation;
  /** Beacons per client network (`beacon-limit.ts`); default 600 a minute; `false` turns the limit off. */
  beaconLimit?: BeaconLimit | false;
  /** Cap of the open sessions' estimated memory (`sessions.ts`); default 64 MiB. */
  openSessionsBytes?: number;
}

/** A `(req, res, next?)` listener with the controls a server needs for a clean shutdown. */
export type CollectHandler = ((req: IncomingMessage, res: ServerResponse, next?: () => void) => Promise<void>) & {
  /** Writes every accepted event now (through the spool: inserts what it holds into the store). */
  flush(): Promise<void>;
  /**
   * Refuses new beacons (503), waits for those being handled, then writes what it can (what
   * the store does not take stays in the spool for the next start). Call after the server
   * stopped accepting connections and before `storage.close()`.
   */
  close(): Promise<void>;
  /**
   * Resolves once collection can write: at once in this thread; with `worker`, when the worker
   * has opened the database (rejects with the reason if it cannot).
   */
  ready(): Promise<void>;
  /** Requests being handled right now. */
  readonly inFlight: number;
  /** Beacons by outcome since start. */
  readonly stats: CollectStats;
};

const ERRORS = {
  payloadTooLarge: 'Payload Too Large',
  unsupportedMediaType: 'Unsupported Media Type',
  siteNotFound: 'Site not found.',
  unavailable: 'Service Unavailable',
  methodNotAllowed: 'Method Not Allowed',
  notFound: 'Not Found',
  serverError: 'Server Error',
} as const;

/**
 * The collector as a Node request listener. `POST /collect` answers 202 once the event is
 * durable (committed, or appended and fsynced to the spool); 400 for a malformed body, 404 for an unknown
 * site, 413 over `MAX_BODY_BYTES` (8 KB and the largest `props`), 415 for other body types, 429 past the client's beacon budget, 503
 * while closing, when storage lags far behind or cannot keep the beacon (a full disk, a full spool). Bots and pages outside the site's domain get 202 too (a beacon cannot read the
 * answer) and are counted in `stats` and the log. Other paths go to `next()` when given.
 *
 * @example
 * const backend = openSqliteBackend('siteline.db');
 * const collect = createCollectHandler({ backend });
 * const api = createApiHandler({ storage: backend.storage, authenticate });
 * https.createServer(tls, (req, res) => collect(req, res, () => api(req, res))).listen(8443);
 * process.on('SIGTERM', async () => { await collect.close(); await backend.close(); });
 */
export function createCollectHandler(options: CollectHandlerOptions): CollectHandler {
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const logger = options.logger ?? jsonLogger();
  const now = options.now ?? Date.now;
  const trustProxy = options.trustProxy ?? false;
  const { storage, salts } = options.backend;
  const sites = new SiteCache(storage, { logger });
  const collector: BeaconSink = options.worker
    ? new CollectThread({ database: options.worker, sites, now, batch: options.batch, spool: options.spool, logger, openSessionsBytes: options.openSessionsBytes })
    : new Collector({ sites, saltStore: salts, writer: new BatchWriter(storage, options.batch, logger), now, logger, openSessionsBytes: options.openSessionsBytes });
  const limit = beaconLimit(options.beaconLimit);
  const stats = new CollectStats(logger);
  let closed = false;
  let inFlight = 0;
  /** Beacons past the last `closed` check not answered yet (their write under way): `close` waits for them. */
  let collecting = 0;

  const collect = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    if (closed || collector.full) return sendJson(res, 503, { error: ERRORS.unavailable }, { 'Retry-After': '5', Connection: 'close' });
    const ip = clientIp(req, trustProxy);
    if (await limit?.refuse(req, res, ip, now())) {
      stats.count('limited');
      return 429;
    }
    if (!acceptedContentType(req.headers['content-type'])) return sendJson(res, 415, { error: ERRORS.unsupportedMediaType });
    const body = await readBody(req, MAX_BODY_BYTES);
    if (!body.ok && body.reason === 'aborted') return 0; // nobody is listening for an answer
    if (!body.ok) return sendJson(res, 413, { error: ERRORS.payloadTooLarge }, { Connection: 'close' });
    const parsed = parseCollectBody(body.text);
    if (!parsed.ok) {
      stats.count('invalid');
      return sendJson(res, 400, { error: parsed.reason });
    }
    // Checked again: closing may have begun while the body was arriving.
    if (closed) return sendJson(res, 503, { error: ERRORS.unavailable }, { 'Retry-After': '5', Connection: 'close' });
    collecting++;
    let outcome: CollectOutcome;
    try {
      const userAgent = req.headers['user-agent'];
      outcome = await collector.collect({ payload: parsed.payload, host: parsed.host, ip, userAgent: userAgent === undefined ? '' : userAgent.length > 1024 ? userAgent.slice(0, 1024) : userAgent });
    } finally {
      collecting--;
    }
    stats.count(outcome);
    if (outcome === 'unknown_site') return sendJson(res, 404, { error: ERRORS.siteNotFound });
    if (outcome === 'unavailable') return sendJson(res, 503, { error: ERRORS.unavailable }, { 'Retry-After': '5' });
    return sendAccepted(res);
  };

  const handler = async (req: IncomingMessage, res: ServerResponse, next?: () => void): Promise<void> => {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    const route = path === `${basePath}/collect` ? 'collect' : path === `${basePath}/tracker.js` ? 'tracker' : undefined;
    if (route === undefined) {
      if (next) return next();
      sendJson(res, 404, { error: ERRORS.notFound });
      return;
    }
    inFlight++;
    try {
      if (route === 'tracker') {
        if (req.method === 'GET' || req.method === 'HEAD') serveTracker(req, res);
        else sendJson(res, 405, { error: ERRORS.methodNotAllowed }, { Allow: 'GET, HEAD' });
      } else if (req.method === 'POST') await collect(req, res);
      else if (req.method === 'OPTIONS') {
        res.writeHead(204, PREFLIGHT_HEADERS);
        res.end();
      } else sendJson(res, 405, { error: ERRORS.methodNotAllowed }, { Allow: 'POST, OPTIONS' });
    } catch (error) {
      const requestId = randomUUID();
      logger({ level: 'error', msg: 'collect failed', request_id: requestId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      sendJson(res, 500, { error: ERRORS.serverError }, { 'X-Request-Id': requestId });
    } finally {
      inFlight--;
    }
  };

  const controls = {
    ready: () => collector.ready(),
    flush: () => collector.flush(),
    async close() {
      closed = true;
      // A beacon past the `closed` check may still be on its way to its commit: let it be answered first.
      while (collecting > 0) await new Promise((resolve) => setTimeout(resolve, 5));
      try {
        await collector.close();
      } finally {
        stats.stop();
      }
    },
    stats,
  };
  return Object.defineProperty(Object.assign(handler, controls), 'inFlight', { get: () => inFlight }) as CollectHandler;
}
