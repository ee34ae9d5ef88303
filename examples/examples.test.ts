import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSite, createSqliteStorage, importEvents } from '@siteline/core';
import { ALPHA, ndjson } from '@siteline/core/testing';
import { ensureDevCertificate } from '@siteline/http';
import { checkApiResponse } from '@siteline/http/testing';
import { afterAll, expect, it } from 'vitest';
import { createApp } from './express-app.js';
import { exampleStore, report } from './goals-and-properties.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-examples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('the API works mounted in an Express app, next to the app\'s own routes', async () => {
    const { certFile, keyFile } = ensureDevCertificate(dir);
  const cert = readFileSync(certFile);
  const storage = createSqliteStorage(':memory:');
  await createSite(storage, { id: 'ST-alpha', name: 'Alpha', domain: 'alpha.example' });
  await importEvents(storage, ndjson(ALPHA));
  const key = 'example-key-0123456789-0123456789';
  const server = https.createServer({ cert, key: readFileSync(keyFile) }, createApp(storage, key));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: string }>((done, fail) => {
      https.get({ host: '127.0.0.1', port, path, ca: cert, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c) => (body += c)).on('end', () => {
          try {
            checkApiResponse({ method: 'GET', url: path, status: res.statusCode!, body, contentType: res.headers['content-type'] });
            done({ status: res.statusCode!, body });
          } catch (error) {
            fail(error);
          }
        });
      }).on('error', fail);
    });
  expect(await get('/api/v1/stats?site_id=ST-alpha&from=2026-11-02&to=2026-11-03', { Authorization: `Bearer ${key}` })).toEqual({
    status: 200,
    body: '{"visitors":5,"pageviews":9,"sessions":6,"bounce_rate":33.3,"avg_duration":236.7}',
  });
  expect(await get('/api/v1/stats?site_id=ST-alpha')).toEqual({ status: 401, body: '{"error":"Unauthorized"}' });
  expect(await get('/health')).toEqual({ status: 200, body: '{"ok":true}' });
  await new Promise((r) => server.close(r));
  await storage.close();
});

it('custom event properties and goals with the core directly (goals-and-properties.ts), numbers by hand', async () => {
  const storage = await exampleStore();
  // Signup: a and c chose pro, b free. Visitors a..e: 5. Signup goal: a, b, c (60 %); /thanks*: a, c (40 %).
  expect(await report(storage)).toEqual({
    plans: { name: 'Signup', property: 'plan', values: [{ value: 'pro', count: 2, visitors: 2 }, { value: 'free', count: 1, visitors: 1 }] },
    goals: {
      goals: [
        { goal: 'Signup', visitors: 3, conversions: 3, conversion_rate: 60 },
        { goal: 'Visit /thanks*', visitors: 2, conversions: 2, conversion_rate: 40 },
      ],
    },
    thanked: { visitors: 2, pageviews: 4, sessions: 2, bounce_rate: 0, avg_duration: 120 },
  });
  await storage.close();
});
