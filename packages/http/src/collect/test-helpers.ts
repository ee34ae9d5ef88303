/**
 * Test scaffolding for the collector: a real SQLite store in a temp dir and the handler on
 * a loopback HTTP port. Not exported from the package.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteBackend, type SaltStore, type Storage } from '@siteline/core';
import type { LogEntry } from '../log.js';
import { closeNow } from '../test-tls.js';
import { type CollectHandler, type CollectHandlerOptions, createCollectHandler } from './handler.js';

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface TestCollector {
  storage: Storage;
  /** A connection of the test's own to the database file, to read what was stored. */
  db: Database.Database;
  dbPath: string;
  handler: CollectHandler;
  logs: LogEntry[];
  url: string;
  request(path: string, init?: { method?: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<Reply>;
  /** POSTs a JSON beacon with a desktop Chrome user agent unless `headers` say otherwise. */
  beacon(body: unknown, headers?: Record<string, string>): Promise<Reply>;
  close(): Promise<void>;
}

export const CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/**
 * Starts a collector over the backend of a fresh SQLite file; `close()` closes everything
 * and deletes it. `worker: true` derives and writes on the worker thread, over the same
 * file (a string: over that file); `salts` replaces the backend's salt store.
 */
export async function startCollector(
  options: Partial<Omit<CollectHandlerOptions, 'worker' | 'backend'>> & { worker?: boolean | string; salts?: SaltStore } = {},
): Promise<TestCollector> {
  const dir = mkdtempSync(join(tmpdir(), 'siteline-collect-'));
  const dbPath = join(dir, 'collect.db');
  const { worker, salts, ...rest } = options;
  const backend = openSqliteBackend(dbPath, options.now ? { now: options.now } : {});
  const db = new Database(dbPath);
  const logs: LogEntry[] = [];
  const handler = createCollectHandler({
    backend: { storage: backend.storage, salts: salts ?? backend.salts },
    logger: (e) => logs.push(e),
    ...rest,
    ...(worker ? { worker: { engine: 'sqlite', path: worker === true ? dbPath : worker } } : {}),
  });
  const server = http.createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const request: TestCollector['request'] = (path, init = {}) =>
    new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: init.headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
        });
      });
      req.on('error', reject).end(init.body);
    });
  return {
    storage: backend.storage,
    db,
    dbPath,
    handler,
    logs,
    url: `http://127.0.0.1:${port}`,
    request,
    beacon: (body, headers = {}) =>
      request('/collect', {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain;charset=UTF-8', 'User-Agent': CHROME_UA, ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    async close() {
      await closeNow(server);
      await handler.close();
      db.close();
      await backend.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
