import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSite, createSqliteStorage, importEvents, MESSAGES, type Storage } from '@siteline/core';
import { ALPHA, ndjson } from '@siteline/core/testing';
import { checkApiResponse } from '@siteline/http/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { communityAuthenticator } from './auth.js';
import { ensureDevCertificate } from './dev-cert.js';
import { createApiHandler, type ApiHandlerOptions } from './handler.js';
import type { LogEntry } from './log.js';

const KEY = 'k'.repeat(40);
const dir = mkdtempSync(join(tmpdir(), 'siteline-http-'));
const devCert = ensureDevCertificate(dir);
const tls = { key: readFileSync(devCert.keyFile), cert: readFileSync(devCert.certFile) };

interface Reply { status: number; headers: http.IncomingHttpHeaders; body: string; json: unknown }

/** A real HTTPS (or plain HTTP) server on a loopback port around a handler. */
async function serve(options: Partial<ApiHandlerOptions> & { storage: Storage }, plain = false) {
  const logs: LogEntry[] = [];
  const handler = createApiHandler({ authenticate: communityAuthenticator(KEY), logger: (e) => logs.push(e), ...options });
  const server = plain ? http.createServer(handler) : https.createServer(tls, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const request = (path: string, init: { method?: string; headers?: Record<string, string> } = {}) =>
    new Promise<Reply>((resolve, reject) => {
      const lib = plain ? http : https;
      const req = lib.request({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: init.headers, ca: tls.cert }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c) => (body += c)).on('end', () => {
          try {
            checkApiResponse({ method: init.method ?? 'GET', url: path, status: res.statusCode!, body, contentType: res.headers['content-type'] });
            resolve({ status: res.statusCode!, headers: res.headers, body, json: body ? JSON.parse(body) : undefined });
          } catch (error) {
            reject(error);
          }
        });
      });
      req.on('error', reject).end();
    });
  const get = (path: string, headers: Record<string, string> = { Authorization: `Bearer ${KEY}` }) => request(path, { headers });
  return { server, logs, request, get, close: () => new Promise((r) => server.close(r)) };
}

describe('createApiHandler over real TLS', () => {
  let storage: Storage;
  let api: Awaited<ReturnType<typeof serve>>;
  const q = 'site_id=ST-alpha&from=2026-11-02&to=2026-11-03';

  beforeAll(async () => {
    storage = createSqliteStorage(join(dir, 'api.db'));
    await createSite(storage, { id: 'ST-alpha', name: 'Alpha', timezone: 'UTC', domain: 'alpha.example' });
    await importEvents(storage, ndjson(ALPHA));
    api = await serve({ storage, now: () => Date.parse('2026-11-03T12:04:00Z') });
  });
  afterAll(async () => {
    await api.close();
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every endpoint with the hand-computed bodies', async () => {
    const expected: Record<string, unknown> = {
      [`/stats?${q}`]: { visitors: 5, pageviews: 9, sessions: 6, bounce_rate: 33.3, avg_duration: 236.7 },
      [`/stats/timeseries?${q}`]: { timeseries: [
        { date: '2026-11-02', visitors: 3, pageviews: 6, sessions: 4 },
        { date: '2026-11-03', visitors: 2, pageviews: 3, sessions: 2 },
      ] },
      [`/pages?${q}&limit=2`]: { pages: [
        { url: '/docs', pageviews: 3, visitors: 3, bounce_rate: 0, avg_duration: 10 },
        { url: '/pricing', pageviews: 3, visitors: 3, bounce_rate: 50, avg_duration: 75 },
      ] },
      [`/referrers?${q}`]: { referrers: [
        { source: 'Direct / None', visitors: 4, sessions: 4 },
        { source: 'blog.example.org', visitors: 1, sessions: 1 },
        { source: 'google.com', visitors: 1, sessions: 1 },
      ] },
      [`/channels?${q}`]: { channels: [
        { channel: 'Direct', visitors: 2, sessions: 2 },
        { channel: 'Email', visitors: 1, sessions: 1 },
        { channel: 'Organic Search', visitors: 1, sessions: 1 },
        { channel: 'Paid Search', visitors: 1, sessions: 1 },
        { channel: 'Referral', visitors: 1, sessions: 1 },
      ] },
      [`/locations?${q}`]: { locations: [
        { country: 'United Kingdom', country_code: 'GB', visitors: 2 },
        { country: 'Germany', country_code: 'DE', visitors: 1 },
        { country: 'United States', country_code: 'US', visitors: 1 },
        { country: 'Unknown', country_code: 'XX', visitors: 1 },
      ] },
      [`/devices?${q}&breakdown=browser`]: { breakdown: 'browser', devices: [
        { name: 'Chrome', visitors: 2 },
        { name: 'Firefox', visitors: 1 },
        { name: 'Safari', visitors: 1 },
        { name: 'Unknown', visitors: 1 },
      ] },
      [`/events?${q}&name=signup`]: { events: [{ name: 'signup', count: 1 }] },
      [`/campaigns?${q}`]: { campaigns: [{ source: 'newsletter', medium: 'email', campaign: 'nov', visitors: 1, sessions: 1 }] },
      '/live?site_id=ST-alpha&from=nonsense': { live: 1 },
    };
    for (const [path, body] of Object.entries(expected)) {
      const reply = await api.get(`/api/v1${path}`);
      expect({ path, status: reply.status, body: reply.json }).toEqual({ path, status: 200, body });
      expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(reply.headers['cache-control']).toBe('private, no-store');
      expect(reply.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(reply.headers['ratelimit-limit']).toBe('600');
    }
  });

  it('accepts the key as api_key when there is no Authorization header; the header alone decides when present', async () => {
    expect((await api.get(`/api/v1/live?site_id=ST-alpha&api_key=${KEY}`, {})).status).toBe(200);
    const both = await api.get(`/api/v1/live?site_id=ST-alpha&api_key=${KEY}`, { Authorization: 'Bearer wrong' });
    expect(both.status).toBe(401);
    expect((await api.get(`/api/v1/live?site_id=ST-alpha&api_key=${KEY}&api_key=${KEY}`, {})).status).toBe(401);
  });

  it.each([
    ['no key', {}],
    ['wrong key', { Authorization: 'Bearer nope' }],
    ['other scheme', { Authorization: `Basic ${KEY}` }],
    ['empty bearer', { Authorization: 'Bearer ' }],
    ['oversized key', { Authorization: `Bearer ${'x'.repeat(4000)}` }],
  ])('401 for %s, with WWW-Authenticate', async (_name, headers) => {
    const reply = await api.get(`/api/v1/stats?site_id=ST-alpha`, headers as Record<string, string>);
    expect(reply.status).toBe(401);
    expect(reply.body).toBe('{"error":"Unauthorized"}');
    expect(reply.headers['www-authenticate']).toBe('Bearer');
    expect(reply.headers['ratelimit-limit']).toBeUndefined();
  });

  it('401 comes before validation, validation before site access', async () => {
    expect((await api.get('/api/v1/stats', {})).status).toBe(401);
    expect((await api.get('/api/v1/stats')).json).toEqual({ error: MESSAGES.siteIdRequired });
    expect(await api.get('/api/v1/stats?site_id=ST-nope&from=bad')).toMatchObject({ status: 422, json: { error: MESSAGES.dateFormat('from') } });
    expect(await api.get('/api/v1/stats?site_id=ST-nope')).toMatchObject({ status: 404, body: '{"error":"Site not found."}' });
  });

  it('422 for repeated, oversized and malformed parameters', async () => {
    const cases: [string, string][] = [
      ['site_id=ST-alpha&site_id=ST-alpha', MESSAGES.siteIdFormat],
      [`site_id=ST-${'a'.repeat(5000)}`, MESSAGES.siteIdFormat],
      ['site_id=%ZZ', MESSAGES.siteIdFormat],
      ['site_id=ST-alpha&from=2026-11-02&to=2026-11-01', MESSAGES.toBeforeFrom],
      ['site_id=ST-alpha&period=1y', MESSAGES.period],
      ['site_id=ST-alpha&limit=1000', MESSAGES.limitRange],
      [`site_id=ST-alpha&name=${'n'.repeat(201)}`, MESSAGES.name],
    ];
    for (const [query, error] of cases) {
      const endpoint = query.includes('name=') ? 'events' : 'pages';
      expect({ query, ...(await api.get(`/api/v1/${endpoint}?${query}`)) }).toMatchObject({ query, status: 422, json: { error } });
    }
  });

  it('404 for unknown paths, 405 with Allow for other methods, HEAD without a body', async () => {
    expect(await api.get('/api/v1/nope?site_id=ST-alpha')).toMatchObject({ status: 404, body: '{"error":"Not Found"}' });
    expect(await api.get('/api/v2/stats?site_id=ST-alpha')).toMatchObject({ status: 404, body: '{"error":"Not Found"}' });
    expect(await api.get('/xxxxxx/stats?site_id=ST-alpha')).toMatchObject({ status: 404 });
    const post = await api.request('/api/v1/stats?site_id=ST-alpha', { method: 'POST', headers: { Authorization: `Bearer ${KEY}` } });
    expect(post).toMatchObject({ status: 405, body: '{"error":"Method Not Allowed"}' });
    expect(post.headers.allow).toBe('GET, HEAD');
    const head = await api.request(`/api/v1/stats?${q}`, { method: 'HEAD', headers: { Authorization: `Bearer ${KEY}` } });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(JSON.stringify({ visitors: 5, pageviews: 9, sessions: 6, bounce_rate: 33.3, avg_duration: 236.7 }).length));
  });

  it('414 for an absurdly long request target', async () => {
    expect(await api.get(`/api/v1/stats?site_id=ST-alpha&x=${'y'.repeat(9000)}`)).toMatchObject({ status: 414, json: { error: 'URI Too Long' } });
  });

  it('never logs the key', async () => {
    await api.get(`/api/v1/stats?site_id=ST-alpha&api_key=${KEY}`, {});
    const text = JSON.stringify(api.logs);
    expect(text).not.toContain(KEY);
    expect(text).toContain('api_key=[REDACTED]');
  });
});

describe('transport, rate limit and failures', () => {
  let storage: Storage;
  beforeAll(async () => {
    storage = createSqliteStorage(':memory:');
    await createSite(storage, { id: 'ST-a', name: 'A' });
  });

  it('403 over plain HTTP, before looking at the key; trusted proxy needs X-Forwarded-Proto https', async () => {
    const plain = await serve({ storage }, true);
    expect(await plain.get('/api/v1/stats?site_id=ST-a')).toMatchObject({ status: 403, body: '{"error":"HTTPS is required."}' });
    expect(await plain.get('/api/v1/stats?site_id=ST-a', {})).toMatchObject({ status: 403 });
    await plain.close();
    const proxied = await serve({ storage, trustProxy: true }, true);
    expect((await proxied.get('/api/v1/stats?site_id=ST-a')).status).toBe(403);
    expect((await proxied.get('/api/v1/stats?site_id=ST-a', { Authorization: `Bearer ${KEY}`, 'X-Forwarded-Proto': 'http' })).status).toBe(403);
    expect((await proxied.get('/api/v1/stats?site_id=ST-a', { Authorization: `Bearer ${KEY}`, 'X-Forwarded-Proto': 'https' })).status).toBe(200);
    await proxied.close();
  });

  it('429 with Retry-After once the per-key budget is spent', async () => {
    let clock = 60_000 * 29_000_000; // on a 0.5 s slot boundary
    const api = await serve({ storage, rateLimit: { limit: 2, windowMs: 60_000 }, now: () => clock });
    // A request counts until the 0.5 s slot it fell in is 60.5 s old: the first one until +60.5 s.
    const first = await api.get('/api/v1/stats?site_id=ST-a');
    expect(first.headers).toMatchObject({ 'ratelimit-limit': '2', 'ratelimit-remaining': '1', 'ratelimit-reset': '61' });
    clock += 15_000;
    expect((await api.get('/api/v1/stats?site_id=ST-nope')).headers).toMatchObject({ 'ratelimit-remaining': '0', 'ratelimit-reset': '46' });
    const limited = await api.get('/api/v1/stats?site_id=ST-a');
    expect(limited).toMatchObject({ status: 429, body: '{"error":"Too Many Requests"}' });
    expect(limited.headers).toMatchObject({ 'retry-after': '46', 'ratelimit-remaining': '0', 'ratelimit-reset': '46' });
    expect((await api.get('/api/v1/stats?site_id=ST-a', {})).status).toBe(401); // unauthenticated requests are not counted
    clock += 45_499;
    expect((await api.get('/api/v1/stats?site_id=ST-a')).status).toBe(429); // refused requests are not counted either
    clock += 1;
    expect((await api.get('/api/v1/stats?site_id=ST-a')).headers).toMatchObject({ 'ratelimit-remaining': '0', 'ratelimit-reset': '15' });
    await api.close();
  });

  it('500 with a generic body when storage fails; the detail goes to the log with the request id', async () => {
    const broken: Storage = { ...storage, summary: async () => { throw new Error('disk on fire'); } };
    const api = await serve({ storage: broken });
    const reply = await api.get('/api/v1/stats?site_id=ST-a');
    expect(reply).toMatchObject({ status: 500, body: '{"error":"Server Error"}' });
    const error = api.logs.find((e) => e.level === 'error');
    expect(error).toMatchObject({ request_id: reply.headers['x-request-id'] });
    expect(String(error?.error)).toContain('disk on fire');
    await api.close();
  });
});
