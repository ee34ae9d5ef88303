/**
 * The bench's HTTPS server on loopback: the read API (rate limit off) behind
 * the collector, as a deployment mounts them, with a throwaway self-signed
 * certificate, and a keep-alive client for the read API.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { SaltStore } from '../../packages/core/src/salts/salts.js';
import type { Storage } from '../../packages/core/src/storage/types.js';
import { communityAuthenticator } from '../../packages/http/src/auth.js';
import { createCollectHandler } from '../../packages/http/src/collect/handler.js';
import type { SpoolConfig } from '../../packages/http/src/collect/thread-protocol.js';
import type { DatabaseLocation } from '../../packages/http/src/database-url.js';
import { createApiHandler } from '../../packages/http/src/handler.js';
import { silentLogger } from '../../packages/http/src/log.js';

export const BENCH_KEY = 'bench-key-bench-key-bench-key-bench-key';

/** A throwaway self-signed certificate for 127.0.0.1 in `dir` (made once). */
export function certificate(dir: string): { key: Buffer; cert: Buffer } {
  mkdirSync(dir, { recursive: true });
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  if (!existsSync(key) || !existsSync(cert)) {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '30',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  }
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

export interface BenchServer {
  url: string;
  /** GETs a read API path with the key over one keep-alive connection; resolves to the body text. */
  get(path: string): Promise<string>;
  /** Writes every event the collector accepted. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `collectWorker`: where the collector's worker thread opens the backend (a SQLite file's path, or a location), with
 * the spool a ClickHouse backend writes through, as the standalone server runs it; none: everything in the request thread.
 */
export async function startServer(
  backend: { storage: Storage; salts: SaltStore }, now: () => number, dir: string, collectWorker?: string | { location: DatabaseLocation; spool?: SpoolConfig },
): Promise<BenchServer> {
  const { storage } = backend;
  const tls = certificate(dir);
  const api = createApiHandler({ storage, authenticate: communityAuthenticator(BENCH_KEY), rateLimit: false, logger: silentLogger, now });
  const where = typeof collectWorker === 'string' ? { location: { engine: 'sqlite' as const, path: collectWorker } } : collectWorker;
  const worker = where ? { worker: where.location, ...(where.spool ? { spool: where.spool } : {}) } : {};
  const collect = createCollectHandler({ backend, trustProxy: true, logger: silentLogger, now, ...worker });
  // As the standalone server does: the collector's worker has opened the database before the first request.
  await collect.ready();
  const server = https.createServer(tls, (req, res) => void collect(req, res, () => void api(req, res)));
  // Never close idle keep-alive connections: a naive query can block the loop for longer than any timeout.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca: tls.cert });
  const get = (path: string) =>
    new Promise<string>((resolve, reject) => {
      const req = https.request({ host: '127.0.0.1', port, path, agent, headers: { Authorization: `Bearer ${BENCH_KEY}` } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode === 200) resolve(body);
          else reject(new Error(`GET ${path}: ${res.statusCode} ${body}`));
        });
      });
      req.on('error', reject).end();
    });
  return {
    url: `https://127.0.0.1:${port}`,
    get,
    flush: () => collect.flush(),
    async close() {
      agent.destroy();
      await collect.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
