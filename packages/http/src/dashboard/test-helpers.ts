/**
 * Test scaffolding for the dashboard: a real HTTPS server on loopback (the development
 * certificate), a real SQLite backend in a temp dir with the demo data, the API and the
 * dashboard composed as the standalone server composes them. Not exported from the package.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDemoSite, type Backend, openSqliteBackend, People, type PeopleOptions, type Storage } from '@siteline/core';
import { type Authenticator, cloudAuthenticator, communityAuthenticator, communityKeyTag } from '../auth.js';
import { createCollectHandler } from '../collect/handler.js';
import { ensureDevCertificate } from '../dev-cert.js';
import { type ApiHandler, createApiHandler } from '../handler.js';
import type { LogEntry } from '../log.js';
import type { RateLimitOptions } from '../rate-limit.js';
import { closeNow } from '../test-tls.js';
import { createDashboardHandler, type DashboardHandler, type DashboardHandlerOptions } from './handler.js';

/** The SQLite store's connection, as much of it as a count needs. */
type SqliteDb = { db: { prepare(sql: string): { pluck(): { get(): unknown } } } };

export const COMMUNITY_KEY = 'dashboard-test-key-0123456789abcdef0123456789';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
}

export interface TestDashboard {
  /** `https://127.0.0.1:<port>` */
  origin: string;
  backend: Backend;
  api: ApiHandler;
  dashboard: DashboardHandler;
  /** The users and web sessions of the backend, on the dashboard's clock. */
  people: People;
  /** Web sessions not ended (SQLite: counted in the file). */
  liveSessions(): number;
  /** The certificate to trust. */
  ca: Buffer;
  logs: LogEntry[];
  /** Cloud: the keys created (account A owns ST-demo, account B owns ST-globex). */
  cloud?: { keyA: string; keyAId: string; accountA: string; keyB: string; accountB: string };
  /** The key that reads ST-demo: the Community key, or Cloud account A's. */
  key: string;
  /** `localAddress`: the loopback address the request comes from (127.0.0.2 … are other clients). */
  request(path: string, init?: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string }): Promise<Reply>;
  close(): Promise<void>;
}

/** Fixed end of the demo data, so every run sees the same numbers (a Friday noon in Berlin). */
export const DEMO_NOW = Date.parse('2026-11-20T11:00:00Z');

export interface StartOptions {
  cloud?: boolean;
  /** API rate limit; default off. */
  rateLimit?: RateLimitOptions | false;
  dashboard?: Partial<Omit<DashboardHandlerOptions, 'api' | 'authenticate' | 'storage'>>;
  /** Clock of the API (report "today", /live); default the demo data's end. */
  now?: () => number;
  /** What the API and the dashboard read instead of the SQLite storage (e.g. one declaring fewer capabilities). */
  storage?: (sqlite: Storage) => Storage;
  /** Session lifetimes (`People`); default `SESSION_LIMITS`. */
  sessions?: Pick<PeopleOptions, 'idleMs' | 'maxAgeMs'>;
  /** The backend to serve instead of a fresh SQLite file (a second server on the same data, ClickHouse). */
  backend?: Backend;
  /** Adds the demo sites, accounts and keys; default true. A second server on the same data passes false. */
  seed?: boolean;
  /** Serves the collector too (`POST /collect`, on the API's clock), for tests where pageviews arrive while a page is open. */
  collect?: boolean;
}

/** Starts the API and the dashboard over HTTPS on a fresh SQLite file with the demo site. */
export async function startDashboard(options: StartOptions = {}): Promise<TestDashboard> {
  const dir = mkdtempSync(join(tmpdir(), 'siteline-dashboard-'));
  const cert = ensureDevCertificate(dir);
  const tls = { key: readFileSync(cert.keyFile), cert: readFileSync(cert.certFile) };
  const backend = options.backend ?? openSqliteBackend(join(dir, 'dashboard.db'));
  const now = options.now ?? (() => DEMO_NOW);
  let authenticate: Authenticator;
  let cloud: TestDashboard['cloud'];
  if (options.seed === false) {
    authenticate = options.cloud ? cloudAuthenticator(backend.accounts) : communityAuthenticator(COMMUNITY_KEY);
  } else if (options.cloud) {
    const a = await backend.accounts.createAccount('Acme');
    const b = await backend.accounts.createAccount('Globex');
    await addDemoSite(backend.storage, { accountId: a.id, now: DEMO_NOW });
    await addDemoSite(backend.storage, { id: 'ST-globex', accountId: b.id, days: 3, pageviewsPerDay: 50, seed: 2, now: DEMO_NOW });
    const keyA = await backend.accounts.createKey(a.id, 'dashboard test');
    const keyB = await backend.accounts.createKey(b.id, 'dashboard test');
    cloud = { keyA: keyA.key, keyAId: keyA.info.id, accountA: a.id, keyB: keyB.key, accountB: b.id };
    authenticate = cloudAuthenticator(backend.accounts);
  } else {
    await addDemoSite(backend.storage, { now: DEMO_NOW }); // DEMO_DAYS (90): the previous 30 days have data too
    authenticate = communityAuthenticator(COMMUNITY_KEY);
  }
  const logs: LogEntry[] = [];
  const logger = (entry: LogEntry) => logs.push(entry);
  const storage = options.storage ? options.storage(backend.storage) : backend.storage;
  const api = createApiHandler({ storage, authenticate, rateLimit: options.rateLimit ?? false, logger, now });
  const people = new People(backend.people, { ...options.sessions, ...(options.dashboard?.now ? { now: options.dashboard.now } : {}) });
  const edition = options.cloud ? { accounts: backend.accounts } : { communityKeyTag: communityKeyTag(COMMUNITY_KEY) };
  const dashboard = createDashboardHandler({
    api, authenticate, storage, people, ...edition, logger, signInRateLimit: false, shares: backend.shares, emailReports: backend.emailReports, ...options.dashboard,
  });
  await dashboard.ready();
  const collect = options.collect ? createCollectHandler({ backend: { storage: backend.storage, salts: backend.salts }, now, logger, beaconLimit: false }) : undefined;
  const serve = (req: IncomingMessage, res: ServerResponse) => void dashboard(req, res, () => void api(req, res));
  const server = https.createServer(tls, collect ? (req, res) => void collect(req, res, () => serve(req, res)) : serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new https.Agent({ ca: tls.cert, keepAlive: false });
  const request: TestDashboard['request'] = (path, init = {}) =>
    new Promise((resolve, reject) => {
      const from = init.localAddress ? { localAddress: init.localAddress } : {};
      const req = https.request({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: init.headers, agent, ...from }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode!, headers: res.headers, body, text: body.toString('utf8') });
        });
      });
      req.on('error', reject).end(init.body);
    });
  return {
    origin: `https://127.0.0.1:${port}`,
    backend, api, dashboard, people, ca: tls.cert, logs, cloud, request,
    liveSessions: () => (backend.storage as unknown as SqliteDb).db.prepare('SELECT COUNT(*) FROM web_sessions WHERE ended = 0').pluck().get() as number,
    key: cloud ? cloud.keyA : COMMUNITY_KEY,
    async close() {
      await closeNow(server);
      agent.destroy();
      await collect?.close();
      await backend.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Signs in with `key` as a browser form would (same Origin); returns the session cookie pair (`name=value`) or the reply on failure. */
export async function signIn(t: TestDashboard, key: string, view = ''): Promise<{ cookie: string; reply: Reply }> {
  const reply = await t.request('/dashboard/sign-in', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: t.origin },
    body: new URLSearchParams({ key, view }).toString(),
  });
  const setCookie = ([] as string[]).concat(reply.headers['set-cookie'] ?? []);
  return { cookie: setCookie[0]?.split(';', 1)[0] ?? '', reply };
}

/** The CSRF token of a signed-in browser's session, as its dashboard page carries it. */
export async function csrfOf(t: TestDashboard, cookie: string): Promise<string> {
  const page = await t.request('/', { headers: { Cookie: cookie } });
  const token = /<meta name="csrf-token" content="([A-Za-z0-9_-]{43})">/.exec(page.text)?.[1];
  if (!token) throw new Error(`No CSRF token in the page (status ${page.status}).`);
  return token;
}
