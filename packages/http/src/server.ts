import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { type AccountStore, createSqliteAccounts, createSqliteSaltStore, createSqliteStorage, type Storage } from '@siteline/core';
import { type Authenticator, cloudAuthenticator, communityAuthenticator } from './auth.js';
import { type CollectHandler, createCollectHandler } from './collect/index.js';
import { ConfigError, isLoopback, type ServerConfig } from './config.js';
import { type ApiHandler, createApiHandler } from './handler.js';
import { jsonLogger, type Logger } from './log.js';
import { exitGracefullyOnSignals, type ShutdownOptions } from './shutdown.js';

export interface StartServerOptions {
  /** Default: the SQLite file at `config.databasePath`. The server closes it on `close()` either way. */
  storage?: Storage;
  /** Default: JSON lines on stdout/stderr. */
  logger?: Logger;
  /** Cloud edition's accounts and keys; default: those in the SQLite database. */
  accounts?: AccountStore;
}

export interface RunningServer {
  /** Base address of the API, e.g. `https://localhost:8443/api/v1`. */
  url: string;
  port: number;
  server: http.Server | https.Server;
  handler: ApiHandler;
  /** `GET /tracker.js` and `POST /collect`, beside the API. */
  collect: CollectHandler;
  storage: Storage;
  /** Stops accepting, waits for in-flight requests, closes the storage. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Who may read: the one place the edition decides the authenticator.
 * Community: the single `SERVICE_API_KEY`. Cloud: account keys from the
 * account store (by default in the SQLite database, shared by every process).
 * @example const authenticate = authenticatorFor(config, () => createSqliteAccounts(db));
 */
export function authenticatorFor(config: Pick<ServerConfig, 'edition' | 'serviceApiKey'>, accounts: () => AccountStore): Authenticator {
  switch (config.edition) {
    case 'community':
      return communityAuthenticator(config.serviceApiKey);
    case 'cloud':
      return cloudAuthenticator(accounts());
  }
}

/**
 * The standalone server: the API handler over HTTPS (`node:https`) on
 * `config.host:config.port`, or over plain HTTP on loopback when
 * `config.trustProxy` says a TLS-terminating proxy is in front. Logs a start
 * line (never the key) and any configuration warnings.
 *
 * @example
 * const running = await startServer(loadConfig(process.cwd()));
 * console.log(running.url); // https://localhost:8443/api/v1
 */
export async function startServer(config: ServerConfig, options: StartServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? jsonLogger();
  // On a SQLite file, beacons are derived and written on a worker thread with its own
  // connection (salts in the database, so every process and restart agrees on the day's
  // visitor ids); with another storage, in this thread. The worker's connection checkpoints
  // the WAL; this one never does (0), so a large checkpoint never runs on the thread that
  // answers requests (its own writes, rollups rebuilt on a read, are checkpointed by the
  // worker's next commit).
  const file = options.storage || !isFile(config.databasePath) ? undefined : config.databasePath;
  const sqlite = options.storage ? undefined : createSqliteStorage(config.databasePath, file ? { walAutocheckpointPages: 0 } : {});
  const storage = options.storage ?? sqlite!;
  const accounts = () => {
    if (options.accounts) return options.accounts;
    if (sqlite) return createSqliteAccounts(sqlite.db);
    throw new ConfigError(['EDITION=cloud needs an account store: pass `accounts` along with a custom storage.']);
  };
  try {
    const api = createApiHandler({
      storage,
      authenticate: authenticatorFor(config, accounts),
      trustProxy: config.trustProxy,
      rateLimit: config.rateLimitPerMinute === 0 ? false : { limit: config.rateLimitPerMinute, windowMs: 60_000 },
      logger,
    });
    const collect = createCollectHandler({
      storage,
      trustProxy: config.trustProxy,
      logger,
      ...(file ? { worker: { sqlitePath: file } } : sqlite ? { saltStore: createSqliteSaltStore(sqlite.db) } : {}),
    });
    try {
      await collect.ready();
    } catch (error) {
      await collect.close();
      throw error;
    }
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => collect(req, res, () => void api(req, res));
    const server = config.tls ? httpsServer(config.tls, handler) : http.createServer(handler);
    await listen(server, config);
    const { port } = server.address() as AddressInfo;
    const url = `${config.tls ? 'https' : 'http'}://${displayHost(config.host)}:${port}/api/v1`;
    for (const warning of config.warnings) logger({ level: 'warn', msg: warning });
    logger({ level: 'info', msg: 'server started', url, edition: config.edition, storage: storage.kind, database: config.databasePath, tls: config.tls ? 'direct' : 'proxy' });

    let closing: Promise<void> | undefined;
    const close = () => (closing ??= stop(server, api, collect, storage, logger));
    return { url, port, server, handler: api, collect, storage, close };
  } catch (error) {
    await storage.close();
    throw error;
  }
}

/**
 * `startServer` plus graceful shutdown on SIGTERM/SIGINT (then the process exits).
 * @example await runServer(loadConfig(process.cwd()));
 */
export async function runServer(config: ServerConfig, options: StartServerOptions & Omit<ShutdownOptions, 'logger'> = {}): Promise<RunningServer> {
  const logger = options.logger ?? jsonLogger();
  const running = await startServer(config, { ...options, logger });
  exitGracefullyOnSignals(() => running.close(), { ...options, logger });
  return running;
}

async function stop(server: http.Server | https.Server, handler: ApiHandler, collect: CollectHandler, storage: Storage, logger: Logger): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // A keep-alive connection serving a request turns idle once the response is sent: close it then.
  const sweep = setInterval(() => server.closeIdleConnections(), 25);
  server.closeIdleConnections();
  await closed;
  while (handler.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  clearInterval(sweep);
  await collect.close(); // every accepted beacon is written before the database closes
  await storage.close();
  logger({ level: 'info', msg: 'server stopped', database: 'closed' });
}

/** Whether a SQLite path names a file another connection can open (not an in-memory database). */
function isFile(path: string): boolean {
  return path !== '' && path !== ':memory:' && !path.startsWith('file::memory:') && !/[?&]mode=memory/.test(path);
}

function httpsServer(files: { certFile: string; keyFile: string }, handler: http.RequestListener): https.Server {
  const tls = readTls(files);
  try {
    return https.createServer(tls, handler);
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
