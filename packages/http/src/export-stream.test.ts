import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSite, createSqliteStorage, importEvents, type Storage } from '@siteline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { communityAuthenticator } from './auth.js';
import { ensureDevCertificate } from './dev-cert.js';
import { createApiHandler } from './handler.js';

const KEY = 'k'.repeat(40);
const EVENTS = 60_000; // 12 pages of 5,000
const dir = mkdtempSync(join(tmpdir(), 'siteline-export-'));
const cert = ensureDevCertificate(dir);
const tls = { key: readFileSync(cert.keyFile), cert: readFileSync(cert.certFile) };

describe('GET /export streams with backpressure', () => {
  let storage: Storage;
  let server: https.Server;
  let pagesRead = 0;
  const listeners: [number, number][] = [];

  beforeAll(async () => {
    storage = createSqliteStorage(join(dir, 'export.db'));
    await createSite(storage, { id: 'ST-big', name: 'Big', timezone: 'UTC' });
    const lines = Array.from({ length: EVENTS }, (_, i) =>
      JSON.stringify({ site_id: 'ST-big', ts: new Date(Date.UTC(2026, 10, 2) + i * 1000).toISOString(), type: 'pageview', url: `/p${i % 50}`, visitor_id: `v${i % 997}` }));
    await importEvents(storage, lines);
    // Counts the storage pages the export reads (the rest of the storage as it is).
    const counted: Storage = Object.create(storage, {
      eventPage: { value: (...args: Parameters<NonNullable<Storage['eventPage']>>) => (pagesRead++, storage.eventPage!(...args)) },
    });
    const handler = createApiHandler({ storage: counted, authenticate: communityAuthenticator(KEY), logger: () => {}, rateLimit: false });
    // The response's 'close' and 'error' listeners at each write of the export.
    server = https.createServer(tls, (req, res) => {
      const write = res.write.bind(res) as (chunk: unknown) => boolean;
      res.write = ((chunk: unknown) => {
        listeners.push([res.listenerCount('close'), res.listenerCount('error')]);
        return write(chunk);
      }) as typeof res.write;
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  }, 60_000);
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads no further than the socket takes while the client does not read, then sends every event', async () => {
    const { port } = server.address() as AddressInfo;
    const res = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      https.get({ host: '127.0.0.1', port, path: '/api/v1/export?site_id=ST-big&from=2026-11-01&to=2026-11-30', ca: tls.cert, headers: { Authorization: `Bearer ${KEY}` }, agent: false }, resolve).on('error', reject);
    });
    res.pause();
    await new Promise((r) => setTimeout(r, 1500));
    // A page is ~1.3 MB of lines; once the socket buffers of both ends (a few MB on loopback) are
    // full, the server waits for 'drain' and reads no further page, however long the client waits.
    const whilePaused = pagesRead;
    await new Promise((r) => setTimeout(r, 1000));
    expect(pagesRead).toBe(whilePaused);
    expect(whilePaused).toBeGreaterThanOrEqual(1);
    expect(whilePaused).toBeLessThanOrEqual(6);
    let text = '';
    res.setEncoding('utf8');
    for await (const chunk of res) text += chunk;
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(EVENTS);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ ts: new Date(Date.UTC(2026, 10, 2) + (EVENTS - 1) * 1000).toISOString(), url: `/p${(EVENTS - 1) % 50}` });
    expect(pagesRead).toBe(13); // 12 full pages and the empty one that ends it
    // Every wait for 'drain' removed its listeners again: as many at the last write as at the first
    // (they grew by two per wait when the losing wait stayed pending).
    expect(listeners.length).toBeGreaterThanOrEqual(12);
    expect(new Set(listeners.map((l) => l.join())).size).toBe(1);
  }, 60_000);
});
