import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { type AccountStore, type Backend, EmailReports, People } from '@siteline/core';
import { type Authenticator, cloudAuthenticator, communityAuthenticator, communityKeyTag } from './auth.js';
import { createReportScheduler, type ReportScheduler } from './email-reports/scheduler.js';
import { linkMailer, smtpSender } from './people/mail.js';
import { type CollectHandler, createCollectHandler } from './collect/index.js';
import { ConfigError, isLoopback, type ServerConfig } from './config.js';
import { createDashboardHandler } from './dashboard/index.js';
import { type ApiHandler, createApiHandler } from './handler.js';
import { DEFAULT_HSTS_MAX_AGE_SECONDS, withHsts } from './hsts.js';
import { jsonLogger, type Logger } from './log.js';
import { applyServerLimits, guardRequests, handlerLimits, type ServerLimits, serverOptions } from './server-limits.js';
import { scheduleCleanup } from './people/cleanup.js';
import { exitGracefullyOnSignals, type ShutdownOptions } from './shutdown.js';

export interface StartServerOptions {
  /** Default: JSON lines on stdout/stderr. */
  logger?: Logger;
  /**
   * The email report scheduler (runs with `SMTP_URL`): its clock (default `Date.now`), and
   * `timers: false` to look for due reports only when `RunningServer.reports.tick()` is called
   * (tests move the clock instead of waiting).
   */
  reports?: { now?: () => number; timers?: boolean };
}

export interface RunningServer {
  /** Base address of the API, e.g. `https://localhost:8443/api/v1`. */
  url: string;
  port: number;
  server: http.Server | https.Server;
  handler: ApiHandler;
  /** `GET /tracker.js` and `POST /collect`, beside the API. */
  collect: CollectHandler;
  /** Where beacons are derived and written: on a worker thread (the backend allows it) or in the request thread. */
  collector: 'worker thread' | 'request thread';
  backend: Backend;
  /** The email report scheduler, when mail is set up (`SMTP_URL`). */
  reports?: ReportScheduler;
  /** Stops accepting, waits for in-flight requests, writes every accepted beacon, closes the backend. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Who may read: the one place the edition decides the authenticator.
 * Community: the single `SERVICE_API_KEY`. Cloud: account keys from the
 * backend's account store, shared by every process using the backend.
 * @example const authenticate = authenticatorFor(config, backend.accounts);
 */
export function authenticatorFor(config: Pick<ServerConfig, 'edition' | 'serviceApiKey'>, accounts: AccountStore): Authenticator {
  switch (config.edition) {
    case 'community':
      return communityAuthenticator(config.serviceApiKey);
    case 'cloud':
      return cloudAuthenticator(accounts);
  }
}

/**
 * The standalone server: the API handler and the collector over HTTPS (`node:https`) on
 * `config.host:config.port`, or over plain HTTP on loopback when `config.trustProxy` says a
 * TLS-terminating proxy is in front, on the backend `openBackend(config.database)` opened.
 * What the backend declares decides the rest: the collector derives and writes on a worker
 * thread through the spool (`config.collectSpool`) when `capabilities.writerThread`, otherwise
 * it commits in this thread (group commits of at most `config.collectBatch.maxEvents`); either
 * way a beacon is answered 202 once durable. Salts, accounts and keys are always the backend's. The server
 * owns the backend from here and closes it on `close()`. Logs a start line (never a key
 * or password) and any configuration warnings.
 *
 * @example
 * const config = loadConfig(process.cwd());
 * const running = await startServer(config, await openBackend(config.database, { role: 'serve' }));
 * console.log(running.url); // https://localhost:8443/api/v1
 */
export async function startServer(config: ServerConfig, backend: Backend, options: StartServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? jsonLogger();
  try {
    const authenticate = authenticatorFor(config, backend.accounts);
    const api = createApiHandler({
      storage: backend.storage,
      authenticate,
      trustProxy: config.trustProxy,
      rateLimit: config.rateLimitPerMinute === 0 ? false : { limit: config.rateLimitPerMinute, windowMs: 60_000 },
      logger,
      ...handlerLimits(config.limits).api,
    });
    const people = new People(backend.people, config.dashboardSessions ?? {});
    const send = smtpSender(config.smtp, logger);
    const dashboard = createDashboardHandler({
      api, authenticate, storage: backend.storage, people, trustProxy: config.trustProxy, logger,
      ...(config.edition === 'cloud' ? { accounts: backend.accounts } : { communityKeyTag: communityKeyTag(config.serviceApiKey) }),
      ...(config.publicUrl ? { publicOrigin: config.publicUrl } : {}),
      ...(send ? { mailLink: linkMailer(send) } : {}),
      shares: backend.shares, emailReports: backend.emailReports, mailsReports: send !== undefined,
    });
    await dashboard.ready();
    const onWorker = backend.capabilities.writerThread;
    const collect = createCollectHandler({
      backend,
      trustProxy: config.trustProxy,
      logger,
      // COLLECT_BATCH_MS is how long beacons gather in the spool (ClickHouse); a commit never waits for more (SQLite).
      batch: onWorker ? config.collectBatch : { maxEvents: config.collectBatch.maxEvents },
      ...handlerLimits(config.limits).collect,
      ...(onWorker ? { worker: config.database, spool: config.collectSpool } : {}),
    });
    try {
      await collect.ready();
    } catch (error) {
      await collect.close();
      throw error;
    }
    const hstsMaxAgeSeconds = config.hstsMaxAgeSeconds ?? DEFAULT_HSTS_MAX_AGE_SECONDS;
    const routes = guardRequests((req, res) => collect(req, res, () => void dashboard(req, res, () => void api(req, res))));
    const handler = withHsts(routes, { trustProxy: config.trustProxy, maxAgeSeconds: hstsMaxAgeSeconds });
    const server = config.tls ? httpsServer(config.tls, handler, config.limits) : http.createServer(serverOptions(config.limits), handler);
    applyServerLimits(server, config.limits, { trustProxy: config.trustProxy, hstsMaxAgeSeconds });
    await listen(server, config);
    const stopCleanup = scheduleCleanup(people, logger);
    const { port } = server.address() as AddressInfo;
    const reports = send && createReportScheduler({
      storage: backend.storage, reports: new EmailReports(backend.emailReports, options.reports?.now ? { now: options.reports.now } : {}), send,
      origin: config.publicUrl ?? `https://localhost:${port}`, logger,
    });
    const stopReports = reports && options.reports?.timers !== false ? reports.start() : async () => {};
    const url = `${config.tls ? 'https' : 'http'}://${displayHost(config.host)}:${port}/api/v1`;
    const collector = onWorker ? 'worker thread' : 'request thread';
    for (const warning of [...config.warnings, ...(backend.notices ?? [])]) logger({ level: 'warn', msg: warning });
    logger({ level: 'info', msg: 'server started', url, edition: config.edition, storage: backend.kind, database: backend.description, collector, tls: config.tls ? 'direct' : 'proxy' });

    let closing: Promise<void> | undefined;
    // The report scheduler stops (and its running look ends) before the backend closes.
    const close = () => (closing ??= (stopCleanup(), stopReports().then(() => stop(server, api, collect, backend, logger))));
    return { url, port, server, handler: api, collect, collector, backend, ...(reports ? { reports } : {}), close };
  } catch (error) {
    await backend.close();
    throw error;
  }
}

/**
 * `startServer` plus graceful shutdown on SIGTERM/SIGINT (then the process exits).
 * @example
 * const config = loadConfig(process.cwd());
 * await runServer(config, await openBackend(config.database, { role: 'serve' }));
 */
export async function runServer(config: ServerConfig, backend: Backend, options: StartServerOptions & Omit<ShutdownOptions, 'logger'> = {}): Promise<RunningServer> {
  const logger = options.logger ?? jsonLogger();
  const running = await startServer(config, backend, { ...options, logger });
  exitGracefullyOnSignals(() => running.close(), { ...options, logger });
  return running;
}

async function stop(server: http.Server | https.Server, handler: ApiHandler, collect: CollectHandler, backend: Backend, logger: Logger): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // A keep-alive connection serving a request turns idle once the response is sent: close it then.
  const sweep = setInterval(() => server.closeIdleConnections(), 25);
  server.closeIdleConnections();
  await closed;
  while (handler.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  clearInterval(sweep);
  await collect.close(); // every accepted beacon is written before the database closes
  await backend.close();
  logger({ level: 'info', msg: 'server stopped', database: 'closed' });
}

function httpsServer(files: { certFile: string; keyFile: string }, handler: http.RequestListener, limits: ServerLimits): https.Server {
  const tls = readTls(files);
  try {
    return https.createServer({ ...tls, ...serverOptions(limits) }, handler);
  } catch (error) {
    throw new ConfigError([`TLS_CERT_FILE and TLS_KEY_FILE must be a PEM certificate and its private key: ${(error as Error).message}`]);
  }
}

function readTls(files: { certFile: string; keyFile: string }): { cert: Buffer; key: Buffer } {
  const read = (name: string, file: string) => {
    try {
      return readFileSync(file);
    } catch (error) {
      throw new ConfigError([`${name} could not be read (${file}): ${(error as Error).message}`]);
    }
  };
  return { cert: read('TLS_CERT_FILE', files.certFile), key: read('TLS_KEY_FILE', files.keyFile) };
}

function listen(server: http.Server | https.Server, config: ServerConfig): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `${config.host}:${config.port}`;
      if (error.code === 'EADDRINUSE') reject(new Error(`PORT ${config.port} is already in use on ${config.host}; stop the other process or set PORT.`));
      else if (error.code === 'EACCES') reject(new Error(`Not allowed to listen on ${where}; ports below 1024 need privileges, so pick another PORT.`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') reject(new Error(`HOST ${config.host} is not an address of this machine.`));
      else reject(error);
    });
    server.listen(config.port, config.host, () => resolve());
  });
}

/** `localhost` for loopback and any-address binds, since the development certificate names it. */
function displayHost(host: string): string {
  if (isLoopback(host) || host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
