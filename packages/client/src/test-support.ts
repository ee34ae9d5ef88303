/**
 * Test-only helpers (not exported from the package, not bundled): a
 * self-signed certificate for 127.0.0.1, a `fetch` over `node:https` that
 * trusts it, and real servers around the real API handler.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSite, createSqliteStorage, importEvents, type Storage } from '@siteline/core';
import { ALPHA, ndjson } from '@siteline/core/testing';
import { type ApiHandlerOptions, communityAuthenticator, createApiHandler, ensureDevCertificate } from '@siteline/http';
import { checkedListener, contractFailures } from '@siteline/http/testing';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Fetch } from './options.js';

export const KEY = 'client-test-key-0123456789abcdef0123456789';
/** The handler's clock: ST-alpha has one live visitor at this instant. */
export const NOW = Date.parse('2026-11-03T12:04:00Z');

/** A key and certificate for `127.0.0.1` (the server's development certificate). */
export function selfSignedCert(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'siteline-client-'));
  try {
    const { keyFile, certFile } = ensureDevCertificate(dir);
    return { key: readFileSync(keyFile), cert: readFileSync(certFile) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A `fetch` over `node:https` trusting `ca` (the global fetch cannot take a CA per call). */
export function httpsFetch(ca: Buffer): Fetch {
  return (url, init) =>
    new Promise((resolve, reject) => {
      const req = https.request(url, { method: init.method, headers: init.headers, ca, signal: init.signal }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk)).on('error', reject).on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode!, headers }));
        });
      });
      req.on('error', reject).end();
    });
}

/** SQLite in memory with ST-alpha and its conformance dataset. */
export async function alphaStorage(): Promise<Storage> {
  const storage = createSqliteStorage(':memory:');
  await createSite(storage, { id: 'ST-alpha', name: 'Alpha', timezone: 'UTC', domain: 'alpha.example' });
  await importEvents(storage, ndjson(ALPHA));
  return storage;
}

/**
 * The real API handler with the test key, a fixed clock and no logs; every
 * response it sends is checked against the OpenAPI document (a mismatch fails
 * the test file in its `afterAll`).
 */
export function apiHandler(options: Partial<ApiHandlerOptions> & { storage: Storage }) {
  return checkedListener(createApiHandler({ authenticate: communityAuthenticator(KEY), now: () => NOW, logger: () => {}, ...options }));
}
afterAll(() => expect(contractFailures).toEqual([]));

export interface TestServer {
  /** `http(s)://127.0.0.1:<port>/api/v1` */
  baseUrl: string;
  /** Every request that reached the server, in order. */
  hits: IncomingMessage[];
  close(): Promise<void>;
}

/** Listens on a loopback port (HTTPS when `tls` is given) and records each request before `listener` sees it. */
export async function listen(listener: RequestListener, tls?: { key: Buffer; cert: Buffer }): Promise<TestServer> {
  const hits: IncomingMessage[] = [];
  const record = (req: IncomingMessage, res: ServerResponse) => {
    hits.push(req);
    listener(req, res);
  };
  const server = tls ? https.createServer(tls, record) : http.createServer(record);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `${tls ? 'https' : 'http'}://127.0.0.1:${port}/api/v1`,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port with nothing listening on it. */
export async function closedPort(): Promise<number> {
  const probe = await listen(() => {});
  const port = Number(new URL(probe.baseUrl).port);
  await probe.close();
  return port;
}

/** What `useRealServers()` gives a `describe` block once its `beforeAll` ran. */
export interface RealServers {
  storage: Storage;
  tls: { key: Buffer; cert: Buffer };
  /** A fetch trusting `tls.cert`. */
  fetch: Fetch;
  /** `listen()`, with the server closed after the block. */
  serve: typeof listen;
}

/** Per-block fixtures: the ST-alpha store, a certificate, a fetch that trusts it, and servers closed afterwards. */
export function useRealServers(): RealServers {
  const servers: TestServer[] = [];
  const env = {
    serve: async (...args: Parameters<typeof listen>) => {
      const server = await listen(...args);
      servers.push(server);
      return server;
    },
  } as RealServers;
  beforeAll(async () => {
    env.tls = selfSignedCert();
    env.fetch = httpsFetch(env.tls.cert);
    env.storage = await alphaStorage();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await env.storage?.close();
  });
  return env;
}
