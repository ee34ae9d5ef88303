import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addGoal, createSite, createSqliteStorage, importEvents, MESSAGES, type Storage } from '@siteline/core';
import { ALPHA, ndjson, PROPS, PROPS_GOALS } from '@siteline/core/testing';
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
  const request = (path: string, init: { method?: string; headers?: Record<string, string>; localAddress?: string } = {}) =>
    new Promise<Reply>((resolve, reject) => {
      const lib = plain ? http : https;
      const req = lib.request({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: init.headers, ca: tls.cert, localAddress: init.localAddress, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c) => (body += c)).on('end', () => {
          try {
            checkApiResponse({ method: init.method ?? 'GET', url: path, status: res.statusCode!, body, contentType: res.headers['content-type'] });
            const json = body && res.headers['content-type']?.startsWith('application/json') ? JSON.parse(body) : undefined;
            resolve({ status: res.statusCode!, headers: res.headers, body, json });
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
    await createSite(storage, { id: 'ST-props', name: 'Properties', timezone: 'UTC' });
    await importEvents(storage, ndjson(PROPS));
    for (const goal of PROPS_GOALS) await addGoal(storage, 'ST-props', goal);
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

  it('format=csv: the same rows as RFC 4180 CSV with a file name naming site, endpoint and range', async () => {
    const csv = async (path: string) => {
      const reply = await api.get(`/api/v1${path}`);
      expect({ path, status: reply.status, type: reply.headers['content-type'] }).toEqual({ path, status: 200, type: 'text/csv; charset=utf-8' });
      return { body: reply.body, disposition: reply.headers['content-disposition'] };
    };
    // The numbers are those of the JSON test above.
    expect(await csv(`/stats?${q}&format=csv`)).toEqual({
      body: 'visitors,pageviews,sessions,bounce_rate,avg_duration\r\n5,9,6,33.3,236.7\r\n',
      disposition: 'attachment; filename="ST-alpha-stats-2026-11-02-2026-11-03.csv"',
    });
    expect((await csv(`/pages?${q}&limit=2&format=csv`)).body).toBe(
      'url,pageviews,visitors,bounce_rate,avg_duration\r\n/docs,3,3,0,10\r\n/pricing,3,3,50,75\r\n',
    );
    expect((await csv(`/devices?${q}&breakdown=browser&format=csv`)).body).toBe(
      'breakdown,name,visitors\r\nbrowser,Chrome,2\r\nbrowser,Firefox,1\r\nbrowser,Safari,1\r\nbrowser,Unknown,1\r\n',
    );
    expect((await csv(`/referrers?${q}&format=csv`)).body).toBe(
      'source,visitors,sessions\r\nDirect / None,4,4\r\nblog.example.org,1,1\r\ngoogle.com,1,1\r\n',
    );
    expect((await csv(`/events?${q}&name=nothing&format=csv`)).body).toBe('name,count\r\n');
    // A period resolves in the site's zone (UTC here) at the handler's clock: 2026-11-03.
    expect((await csv('/locations?site_id=ST-alpha&period=7d&format=csv')).disposition).toBe('attachment; filename="ST-alpha-locations-2026-10-28-2026-11-03.csv"');
  });

  it('format=csv flattens comparison: comparison_<field> columns; timeseries pairs the two ranges by position', async () => {
    // 11-03: S5 (bounce, 0 s) and S6 (10 s); compared 11-02: S1 180 s, S2 bounce, S3 30 s, S4 1200 s (datasets.ts).
    const range = 'site_id=ST-alpha&from=2026-11-03&to=2026-11-03&compare=previous_period&format=csv';
    expect((await api.get(`/api/v1/stats?${range}`)).body).toBe(
      'visitors,pageviews,sessions,bounce_rate,avg_duration,comparison_from,comparison_to,comparison_visitors,comparison_pageviews,comparison_sessions,comparison_bounce_rate,comparison_avg_duration\r\n' +
        '2,3,2,50,5,2026-11-02,2026-11-02,3,6,4,25,352.5\r\n',
    );
    expect((await api.get(`/api/v1/stats/timeseries?${range}`)).body).toBe(
      'date,visitors,pageviews,sessions,comparison_date,comparison_visitors,comparison_pageviews,comparison_sessions\r\n' +
        '2026-11-03,2,3,2,2026-11-02,3,6,4\r\n',
    );
    expect((await api.get(`/api/v1/channels?${range}`)).body).toBe(
      'channel,visitors,sessions,comparison_visitors,comparison_sessions\r\nDirect,1,1,1,1\r\nPaid Search,1,1,0,0\r\n',
    );
  });

  it('format=csv on /goals and /properties: the goal rows; an event\'s keys or one key\'s values with name (and property) on every record', async () => {
    // The numbers of the properties-and-goals conformance cases (conformance-properties.ts, worked out by hand from datasets-properties.ts).
    const range = 'site_id=ST-props&from=2026-11-10&to=2026-11-11&format=csv';
    const goals = await api.get(`/api/v1/goals?${range}&compare=previous_period`);
    expect([goals.status, goals.headers['content-disposition'], goals.body]).toEqual([200, 'attachment; filename="ST-props-goals-2026-11-10-2026-11-11.csv"',
      'goal,visitors,conversions,conversion_rate,comparison_visitors,comparison_conversions,comparison_conversion_rate\r\n' +
      'Signup,5,6,83.3,1,1,50\r\nVisit /blog/*,2,2,33.3,0,0,0\r\nVisit /thanks*,2,2,33.3,1,1,50\r\nPurchase,0,0,0,0,0,0\r\n']);
    const keys = await api.get(`/api/v1/properties?${range}&name=Signup`);
    expect([keys.headers['content-disposition'], keys.body]).toEqual(['attachment; filename="ST-props-properties-2026-11-10-2026-11-11.csv"',
      'name,property,count,visitors\r\nSignup,plan,5,4\r\nSignup,coupon,1,1\r\nSignup,seats,1,1\r\n']);
    expect((await api.get(`/api/v1/properties?${range}&name=Signup&property=plan&compare=previous_period`)).body).toBe(
      'name,property,value,count,visitors,comparison_count,comparison_visitors\r\n' +
      'Signup,plan,pro,3,3,0,0\r\nSignup,plan,Pro,1,1,0,0\r\nSignup,plan,free,1,1,1,1\r\n');
    expect((await api.get(`/api/v1/properties?${range}&name=Nope`)).body).toBe('name,property,count,visitors\r\n');
    expect(await api.get(`/api/v1/properties?${range}`)).toMatchObject({ status: 422, json: { error: 'The name field is required.' } });
  });

  it('format=csv: same validation, auth and errors (as JSON); any other format is 422', async () => {
    expect(await api.get(`/api/v1/pages?${q}&format=xml`)).toMatchObject({ status: 422, json: { error: 'The selected format is invalid. Use json or csv.' } });
    expect(await api.get(`/api/v1/pages?${q}&format=csv&format=csv`)).toMatchObject({ status: 422, json: { error: MESSAGES.format } });
    const unauthorised = await api.get(`/api/v1/pages?${q}&format=csv`, {});
    expect([unauthorised.status, unauthorised.headers['content-type'], unauthorised.headers['content-disposition']]).toEqual([401, 'application/json; charset=utf-8', undefined]);
    expect(await api.get('/api/v1/pages?site_id=ST-nope&format=csv')).toMatchObject({ status: 404, json: { error: 'Site not found.' } });
    expect(await api.get('/api/v1/pages?site_id=ST-alpha&from=2026-11-03&to=2026-11-01&format=csv')).toMatchObject({ status: 422, json: { error: MESSAGES.toBeforeFrom } });
    const head = await api.request(`/api/v1/stats?${q}&format=csv`, { method: 'HEAD', headers: { Authorization: `Bearer ${KEY}` } });
    expect([head.status, head.body, head.headers['content-length']]).toEqual([200, '', String('visitors,pageviews,sessions,bounce_rate,avg_duration\r\n5,9,6,33.3,236.7\r\n'.length)]);
  });

  it('GET /export: the range\'s events as NDJSON import lines; errors before the stream are JSON', async () => {
    const reply = await api.get(`/api/v1/export?${q}`);
    expect([reply.status, reply.headers['content-type'], reply.headers['content-disposition'], reply.headers['transfer-encoding']]).toEqual([
      200, 'application/x-ndjson; charset=utf-8', 'attachment; filename="ST-alpha-export-2026-11-02-2026-11-03.ndjson"', 'chunked',
    ]);
    const lines = reply.body.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
    expect(lines).toHaveLength(11); // every ALPHA line (datasets.ts)
    expect(lines.map((l) => l.type).filter((t) => t === 'event')).toHaveLength(2);
    expect(lines.at(-1)).toMatchObject({ ts: '2026-11-03T12:00:10.000Z', type: 'event', name: 'download', url: '/docs', visitor_id: 'v4', country_code: 'XX' });
    // One day: the four events of 11-03 (v3's second pageview, S5, S6's two).
    expect((await api.get('/api/v1/export?site_id=ST-alpha&from=2026-11-03&to=2026-11-03')).body.trimEnd().split('\n')).toHaveLength(4);
    expect((await api.get('/api/v1/export?site_id=ST-alpha&from=2026-12-01&to=2026-12-01')).body).toBe('');
    expect(await api.get('/api/v1/export?site_id=ST-nope')).toMatchObject({ status: 404, json: { error: 'Site not found.' } });
    expect(await api.get('/api/v1/export?site_id=ST-alpha&from=2026-11-03')).toMatchObject({ status: 422, json: { error: MESSAGES.requiredWith('to', 'from') } });
    expect(await api.get(`/api/v1/export?${q}`, {})).toMatchObject({ status: 401, json: { error: 'Unauthorized' } });
    const head = await api.request(`/api/v1/export?${q}`, { method: 'HEAD', headers: { Authorization: `Bearer ${KEY}` } });
    expect([head.status, head.body]).toEqual([200, '']);
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

  it('dates at the edges of YYYY-MM-DD are served, one row a day, with no error logged (issue 16, point 3)', async () => {
    const zeros = (dates: string[]) => ({ timeseries: dates.map((date) => ({ date, visitors: 0, pageviews: 0, sessions: 0 })) });
    // Were: 500 (RangeError: Invalid time value) and one row instead of five.
    expect(await api.get('/api/v1/stats/timeseries?site_id=ST-alpha&from=9999-12-31&to=9999-12-31')).toMatchObject({ status: 200, json: zeros(['9999-12-31']) });
    expect(await api.get('/api/v1/stats/timeseries?site_id=ST-alpha&from=0000-01-01&to=0000-01-05')).toMatchObject({
      status: 200, json: zeros(['0000-01-01', '0000-01-02', '0000-01-03', '0000-01-04', '0000-01-05']),
    });
    expect(await api.get('/api/v1/stats?site_id=ST-alpha&from=0000-01-01&to=9999-12-31')).toMatchObject({ status: 422, json: { error: MESSAGES.rangeTooLong } });
    expect(await api.get('/api/v1/stats?site_id=ST-alpha&from=10000-01-01&to=10000-01-01')).toMatchObject({ status: 422, json: { error: MESSAGES.dateFormat('from') } });
    expect(api.logs.filter((e) => e.level === 'error')).toEqual([]);
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
    expect(api.logs.at(-1)).toMatchObject({ path: '/api/v1/stats', query: { site_id: 'ST-alpha', api_key: '[REDACTED]' } });
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

  it('60 a minute means 60 in any 60 seconds: 60 requests at 0:59 and 60 at 1:01 admit 60, not 120 (issue 16, point 8)', async () => {
    let clock = 60_000 * 29_000_000 + 59_000; // 0:59 of some minute: a fixed window would reset at 1:00
    const api = await serve({ storage, rateLimit: { limit: 60, windowMs: 60_000 }, now: () => clock });
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await api.get('/api/v1/live?site_id=ST-a')).status);
    clock += 2_000;
    for (let i = 0; i < 60; i++) statuses.push((await api.get('/api/v1/live?site_id=ST-a')).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.slice(60)).toEqual(Array(60).fill(429));
    // All 60 fell in the 0.5 s slot starting at 0:59.0, counted until 1:59.5: 58.5 s after 1:01.
    expect((await api.get('/api/v1/live?site_id=ST-a')).headers).toMatchObject({ 'retry-after': '59', 'ratelimit-remaining': '0', 'ratelimit-reset': '59' });
    clock += 58_500;
    expect((await api.get('/api/v1/live?site_id=ST-a')).status).toBe(200);
    await api.close();
  });

  it('failed authentications are limited per client address: the 31st wrong key in a minute is 429, another address is not affected (issue 16, point 8)', async () => {
    let clock = 60_000 * 29_000_000;
    const api = await serve({ storage, now: () => clock });
    const wrong = { Authorization: 'Bearer wrong-key' };
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await api.request('/api/v1/live?site_id=ST-a', { headers: wrong, localAddress: '127.0.0.1' })).status);
    expect(statuses).toEqual([...Array(30).fill(401), ...Array(10).fill(429)]);
    // Spent: even the right key waits (its key is not looked at), with Retry-After = one failure's refill (60 s / 30).
    const blocked = await api.request('/api/v1/live?site_id=ST-a', { headers: { Authorization: `Bearer ${KEY}` }, localAddress: '127.0.0.1' });
    expect(blocked).toMatchObject({ status: 429, body: '{"error":"Too Many Requests"}' });
    expect(blocked.headers['retry-after']).toBe('2');
    expect(blocked.headers['ratelimit-limit']).toBeUndefined();
    // Another client address has its own budget.
    expect((await api.request('/api/v1/live?site_id=ST-a', { headers: wrong, localAddress: '127.0.0.2' })).status).toBe(401);
    expect((await api.request('/api/v1/live?site_id=ST-a', { headers: { Authorization: `Bearer ${KEY}` }, localAddress: '127.0.0.2' })).status).toBe(200);
    clock += 2_000; // one failure refilled
    expect((await api.request('/api/v1/live?site_id=ST-a', { headers: { Authorization: `Bearer ${KEY}` }, localAddress: '127.0.0.1' })).status).toBe(200);
    expect((await api.request('/api/v1/live?site_id=ST-a', { headers: wrong, localAddress: '127.0.0.1' })).status).toBe(401);
    expect((await api.request('/api/v1/live?site_id=ST-a', { headers: wrong, localAddress: '127.0.0.1' })).status).toBe(429);
    await api.close();
  });

  it('behind a trusted proxy, failed authentications are counted per X-Forwarded-For client', async () => {
    const api = await serve({ storage, trustProxy: true, authFailureLimit: { limit: 2 } }, true);
    const from = (ip: string) => ({ Authorization: 'Bearer wrong', 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': `${ip}, 10.0.0.1` });
    const statuses = [];
    for (const ip of ['198.51.100.1', '198.51.100.1', '198.51.100.1', '2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2::3', '2001:db8:1:3::1']) {
      statuses.push((await api.get('/api/v1/live?site_id=ST-a', from(ip))).status);
    }
    // One IPv6 /64 is one client.
    expect(statuses).toEqual([401, 401, 429, 401, 401, 429, 401]);
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
