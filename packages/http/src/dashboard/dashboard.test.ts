/**
 * The dashboard's server side over real HTTPS on loopback, with the demo data in a real
 * SQLite file: pages and headers, sign-in and sign-out, sessions, the data routes answered
 * by the API's own pipeline, Cloud accounts and revocation, the assets and their size.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { checkApiResponse } from '@siteline/http/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBackend } from '../backend.js';
import { parseConfig } from '../config.js';
import { ensureDevCertificate } from '../dev-cert.js';
import { silentLogger } from '../log.js';
import { startServer } from '../server.js';
import { CONTENT_SECURITY_POLICY } from './http-io.js';
import { csrfOf, DEMO_NOW, signIn, startDashboard, type TestDashboard } from './test-helpers.js';

/** The dashboard's data route answers exactly like the API: check it against the OpenAPI document as the API path it stands for. */
function checked(reply: { status: number; text: string; headers: Record<string, unknown> }, apiPath: string) {
  checkApiResponse({ method: 'GET', url: apiPath, status: reply.status, body: reply.text, contentType: String(reply.headers['content-type']) });
  return reply;
}

const SECURITY = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

describe('dashboard over HTTPS (Community key)', () => {
  let t: TestDashboard;
  let clock = Date.parse('2026-11-20T11:00:00Z');
  beforeAll(async () => {
    t = await startDashboard({ dashboard: { now: () => clock }, sessions: { idleMs: 30 * 60_000, maxAgeMs: 12 * 3_600_000 } });
  });
  afterAll(() => t?.close());

  it('GET / without a session is the sign-in form, with the strict headers, keeping the view for after sign-in', async () => {
    const reply = await t.request('/?site_id=ST-demo&period=7d');
    expect(reply.status).toBe(200);
    expect(reply.headers).toMatchObject({ ...SECURITY, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    expect(reply.headers['set-cookie']).toBeUndefined();
    expect(reply.text).toContain('<form method="post" action="dashboard/sign-in" aria-label="Sign in with email and password">');
    expect(reply.text).toContain('<form method="post" action="dashboard/sign-in" aria-label="Sign in with an API key">');
    expect(reply.text).toContain('<input type="hidden" name="view" value="?site_id=ST-demo&amp;period=7d">');
    expect(reply.text).not.toMatch(/<script(?![^>]*\bsrc=)/); // no inline script
    expect(reply.text).not.toMatch(/\sstyle=/); // no inline style
  });

  it('the policy: everything from this server, no framing, forms post only here, no <base>', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; object-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
  });

  it('a refused key: 401 and the form again, without the key in it and without a cookie', async () => {
    const wrong = 'not-the-key-but-long-enough-to-look-real';
    const { reply } = await signIn(t, wrong, '?site_id=ST-demo');
    expect(reply.status).toBe(401);
    expect(reply.headers['set-cookie']).toBeUndefined();
    expect(reply.text).toContain('This key was not accepted.');
    // Answered at /dashboard/sign-in: its form and assets lead one directory up (not to /dashboard/dashboard/…).
    expect(reply.text).toContain('<form method="post" action="../dashboard/sign-in" aria-label="Sign in with an API key">');
    expect(reply.text).toMatch(/<link rel="stylesheet" href="\.\.\/dashboard\/assets\/app\.[0-9a-f]{16}\.css">/);
    expect(reply.text).not.toContain(wrong);
    expect(reply.text).toContain('value="?site_id=ST-demo"');
  });

  it('sign-in is refused (403) without this server\'s Origin, and starts no session', async () => {
    const before = t.liveSessions();
    const body = new URLSearchParams({ key: t.key }).toString();
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    for (const headers of [form, { ...form, Origin: 'https://evil.example' }, { ...form, Origin: 'null' }, { ...form, Origin: t.origin.replace('https:', 'http:') }]) {
      const reply = await t.request('/dashboard/sign-in', { method: 'POST', headers, body });
      expect(reply.status).toBe(403);
      expect(reply.headers['set-cookie']).toBeUndefined();
    }
    expect(t.liveSessions()).toBe(before);
  });

  it('sign-in: 303 back to the view, a random session id in an HttpOnly, Secure, SameSite=Strict cookie; the key itself is never in the answer', async () => {
    const { reply, cookie } = await signIn(t, t.key, '?site_id=ST-demo&period=7d');
    expect(reply.status).toBe(303);
    expect(reply.headers.location).toBe('/?site_id=ST-demo&period=7d');
    const setCookie = ([] as string[]).concat(reply.headers['set-cookie'] ?? []);
    expect(setCookie).toHaveLength(1);
    expect(setCookie[0]).toMatch(/^__Host-siteline_session=[A-Za-z0-9_-]{43}; HttpOnly; Secure; SameSite=Strict; Path=\/$/);
    expect(reply.text + JSON.stringify(reply.headers)).not.toContain(t.key);
    // Two sign-ins, two different ids (256 random bits each).
    const second = await signIn(t, t.key);
    expect(second.cookie).not.toBe(cookie);

    const page = await t.request('/', { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(page.headers).toMatchObject(SECURITY);
    expect(page.text).toMatch(/<script type="module" src="dashboard\/assets\/app\.[0-9a-f]{16}\.js"><\/script>/);
    expect(page.text).not.toContain(t.key);
  });

  it('a view that is not a query string is not put back into the redirect (no open redirect, no header injection)', async () => {
    for (const view of ['//evil.example/', 'https://evil.example', '?a=b\r\nSet-Cookie: x=y', `?${'a'.repeat(5000)}`]) {
      const { reply } = await signIn(t, t.key, view);
      expect(reply.status).toBe(303);
      expect(reply.headers.location).toBe('/');
    }
  });

  it('a key in the address (api_key) is never rendered or redirected to; the sign-in page says why; signed in, the address is cleaned', async () => {
    const reply = await t.request(`/?site_id=ST-demo&api_key=${t.key}&period=7d`);
    expect(reply.status).toBe(200);
    expect(reply.text).not.toContain(t.key);
    expect(reply.text).toContain('<input type="hidden" name="view" value="?site_id=ST-demo&amp;period=7d">');
    expect(reply.text).toContain('<p class="error" role="status">The address of this page contained an API key (api_key). It was ignored');
    // Spelled with escapes, alone, or as the only parameter: dropped just the same.
    for (const [view, kept] of [[`?api%5Fkey=${t.key}`, ''], [`?api_key=${t.key}`, ''], [`?site_id=ST-demo&api_key`, '?site_id=ST-demo']] as const) {
      const page = await t.request(`/${view}`);
      expect(page.text).not.toContain(t.key);
      expect(page.text).toContain(`<input type="hidden" name="view" value="${kept.replace('&', '&amp;')}">`);
      expect(page.text).toContain('role="status"');
    }
    // A form posted with the key in its view: the redirect leaves it out.
    const { reply: signedIn, cookie } = await signIn(t, t.key, `?site_id=ST-demo&api_key=${t.key}`);
    expect([signedIn.status, signedIn.headers.location]).toEqual([303, '/?site_id=ST-demo']);
    // Signed in, a URL with a key is sent to the same view without it.
    const again = await t.request(`/?api_key=${t.key}&site_id=ST-demo`, { headers: { Cookie: cookie } });
    expect([again.status, again.headers.location]).toEqual([303, '/?site_id=ST-demo']);
    // Without a key in the address: no notice.
    expect((await t.request('/?site_id=ST-demo')).text).not.toContain('role="status"');
  });

  it('data routes answer exactly what the API answers the key for the same query, through the same rules', async () => {
    const { cookie } = await signIn(t, t.key);
    const query = 'site_id=ST-demo&period=7d&compare=previous_period&filters=%5B%5B%22is%22%2C%22source%22%2C%5B%22google.com%22%5D%5D%5D';
    for (const path of ['stats', 'stats/timeseries', 'pages', 'referrers', 'channels', 'locations', 'devices', 'events', 'campaigns']) {
      const viaSession = checked(await t.request(`/dashboard/data/${path}?${query}`, { headers: { Cookie: cookie } }), `/api/v1/${path}?${query}`);
      const viaKey = checked(await t.request(`/api/v1/${path}?${query}`, { headers: { Authorization: `Bearer ${t.key}` } }), `/api/v1/${path}?${query}`);
      expect([path, viaSession.status, viaSession.text]).toEqual([path, 200, viaKey.text]);
    }
    // The API's validation, site access and routing, with their exact bodies.
    const get = (path: string) => t.request(`/dashboard/data/${path}`, { headers: { Cookie: cookie } });
    expect(checked(await get('stats?site_id=ST-demo&period=2d'), '/api/v1/stats')).toMatchObject({ status: 422, text: '{"error":"The selected period is invalid."}' });
    expect(checked(await get('stats?site_id=ST-nothere'), '/api/v1/stats')).toMatchObject({ status: 404, text: '{"error":"Site not found."}' });
    expect((await get('nothing?site_id=ST-demo')).text).toBe('{"error":"Not Found"}');
    // A key the request carries is not read: the session decides.
    const withWrongKey = await t.request('/dashboard/data/live?site_id=ST-demo', { headers: { Cookie: cookie, Authorization: 'Bearer wrong' } });
    expect(withWrongKey.status).toBe(200);
    expect(t.logs.some((l) => l.msg === 'request' && l.via === 'session' && l.path === '/api/v1/stats')).toBe(true);
  });

  it('data routes without a live session: 401 {"error":"Unauthorized"}; a stale cookie is cleared', async () => {
    const none = await t.request('/dashboard/data/stats?site_id=ST-demo');
    expect([none.status, none.text, none.headers['set-cookie']]).toEqual([401, '{"error":"Unauthorized"}', undefined]);
    const stale = await t.request('/dashboard/data/stats?site_id=ST-demo', { headers: { Cookie: `__Host-siteline_session=${'A'.repeat(43)}` } });
    expect([stale.status, stale.text]).toEqual([401, '{"error":"Unauthorized"}']);
    expect(stale.headers['set-cookie']).toEqual(['__Host-siteline_session=; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=0']);
  });

  it('sites: the picker\'s list (a Community key reads every site)', async () => {
    const { cookie } = await signIn(t, t.key);
    const reply = await t.request('/dashboard/data/sites', { headers: { Cookie: cookie } });
    expect(JSON.parse(reply.text)).toEqual({
      sites: [{ id: 'ST-demo', name: 'Demo', domain: 'demo.siteline.test', timezone: 'Europe/Berlin' }],
      tracker: '/tracker.js',
      can: { filters: true, hours: true, properties: true, goals: true, funnels: true }, // SQLite answers filters, hours, properties, goals and funnels
      now: DEMO_NOW, // the API's clock: the dashboard's "today" is the reports'
      you: 'community key', // an empty installation would tell them the `siteline sites add` command
    });
  });

  it('sign-out ends the session (its cookie no longer reads anything) and needs this server\'s Origin and the session\'s CSRF token', async () => {
    const { cookie } = await signIn(t, t.key);
    const csrf = await csrfOf(t, cookie);
    const form = (token: string) => ({ 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, body: new URLSearchParams({ csrf: token }).toString() });
    const post = (origin: string, token: string) => {
      const { body, ...headers } = form(token);
      return t.request('/dashboard/sign-out', { method: 'POST', headers: { ...headers, Origin: origin }, body });
    };
    const refused = await post('https://evil.example', csrf);
    expect([refused.status, refused.text]).toEqual([403, '{"error":"This form must be sent from this server\'s own pages."}']);
    for (const stale of ['', 'x'.repeat(43), `${csrf.slice(0, -1)}${csrf.endsWith('A') ? 'B' : 'A'}`]) {
      const noToken = await post(t.origin, stale);
      expect([noToken.status, JSON.parse(noToken.text).error]).toEqual([403, expect.stringContaining('This form is out of date')]);
    }
    expect((await t.request('/dashboard/data/live?site_id=ST-demo', { headers: { Cookie: cookie } })).status).toBe(200);
    const out = await post(t.origin, csrf);
    expect([out.status, out.headers.location]).toEqual([303, '/']);
    expect(out.headers['set-cookie']).toEqual(['__Host-siteline_session=; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=0']);
    expect((await t.request('/dashboard/data/live?site_id=ST-demo', { headers: { Cookie: cookie } })).status).toBe(401);
    expect((await t.request('/', { headers: { Cookie: cookie } })).text).toContain('action="dashboard/sign-in"');
  });

  it('a session ends after 30 idle minutes; each use starts the 30 minutes again', async () => {
    const { cookie } = await signIn(t, t.key);
    const live = async () => (await t.request('/dashboard/data/live?site_id=ST-demo', { headers: { Cookie: cookie } })).status;
    clock += 29 * 60_000;
    expect(await live()).toBe(200);
    clock += 29 * 60_000; // 58 minutes after sign-in, 29 after the last use
    expect(await live()).toBe(200);
    clock += 30 * 60_000;
    expect(await live()).toBe(401);
  });

  it('methods: sign-in and sign-out take POST only, pages and data GET/HEAD (405 with Allow)', async () => {
    expect(await t.request('/dashboard/sign-in')).toMatchObject({ status: 405, headers: { allow: 'POST' } });
    expect(await t.request('/dashboard/sign-out')).toMatchObject({ status: 405, headers: { allow: 'POST' } });
    expect(await t.request('/', { method: 'POST' })).toMatchObject({ status: 405, headers: { allow: 'GET, HEAD' } });
    expect(await t.request('/dashboard/nothing')).toMatchObject({ status: 404, text: '{"error":"Not Found"}' });
    const head = await t.request('/', { method: 'HEAD' });
    expect([head.status, head.text, Number(head.headers['content-length']) > 0]).toEqual([200, '', true]);
  });

  it('sign-in form bodies: only application/x-www-form-urlencoded (415), at most 8 KB (413)', async () => {
    const post = (type: string, body: string) => t.request('/dashboard/sign-in', { method: 'POST', headers: { 'Content-Type': type, Origin: t.origin }, body });
    expect((await post('application/json', JSON.stringify({ key: t.key }))).status).toBe(415);
    expect((await post('application/x-www-form-urlencoded', `key=${'k'.repeat(9000)}`)).status).toBe(413);
  });

  it('assets: hashed names, immutable, gzipped; everything a signed-in page loads is under 60 KB gzipped', async () => {
    const { cookie } = await signIn(t, t.key);
    const page = await t.request('/', { headers: { Cookie: cookie } });
    const urls = [...page.text.matchAll(/(?:src|href)="(dashboard\/assets\/[^"]+)"/g)].map((m) => `/${m[1]}`);
    expect(urls.map((u) => u.replace(/\.[0-9a-f]{16}\./, '.#.'))).toEqual(['/dashboard/assets/icon.#.svg', '/dashboard/assets/app.#.css', '/dashboard/assets/app.#.js']);
    let total = gzipSync(page.body).length; // the page itself, as a gzipping proxy would send it
    for (const url of urls) {
      const reply = await t.request(url, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(reply.headers).toMatchObject({ 'content-encoding': 'gzip', 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff' });
      expect(gunzipSync(reply.body).length).toBeGreaterThan(0);
      total += reply.body.length;
    }
    console.log(`dashboard: ${total} bytes gzipped in total (page, icon, stylesheet, script)`);
    expect(total).toBeLessThan(60 * 1024);
    expect((await t.request('/dashboard/assets/app.0000000000000000.js')).status).toBe(404);
  });

  it('plain HTTP is refused (403), as the API refuses it', async () => {
    const server = http.createServer((req, res) => void t.dashboard(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const status = await new Promise<number>((resolve, reject) => http.get({ host: '127.0.0.1', port, path: '/' }, (res) => { res.resume(); resolve(res.statusCode!); }).on('error', reject));
    await new Promise((r) => server.close(r));
    expect(status).toBe(403);
  });
});

describe('dashboard sign-in throttle and shared rate limit', () => {
  let t: TestDashboard;
  beforeAll(async () => {
    t = await startDashboard({ rateLimit: { limit: 3, windowMs: 60_000 }, dashboard: { signInRateLimit: { limit: 2, windowMs: 60_000 } } });
  });
  afterAll(() => t?.close());

  it('sign-in attempts per client address are limited (429 with Retry-After)', async () => {
    expect((await signIn(t, 'wrong-key-one')).reply.status).toBe(401);
    const { cookie } = await signIn(t, t.key);
    expect(cookie).not.toBe('');
    const third = await signIn(t, t.key);
    expect(third.reply.status).toBe(429);
    expect(Number(third.reply.headers['retry-after'])).toBeGreaterThan(0);

    // The session's requests count against the key's API budget (3 a minute here), shared with requests using the key.
    const viaSession = await t.request('/dashboard/data/live?site_id=ST-demo', { headers: { Cookie: cookie } });
    expect(viaSession.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-remaining': '2' });
    await t.request('/api/v1/live?site_id=ST-demo', { headers: { Authorization: `Bearer ${t.key}` } });
    await t.request('/api/v1/live?site_id=ST-demo', { headers: { Authorization: `Bearer ${t.key}` } });
    const over = await t.request('/dashboard/data/live?site_id=ST-demo', { headers: { Cookie: cookie } });
    expect([over.status, over.text]).toEqual([429, '{"error":"Too Many Requests"}']);
  });
});

describe('dashboard with Cloud keys', () => {
  let t: TestDashboard;
  beforeAll(async () => {
    t = await startDashboard({ cloud: true });
  });
  afterAll(() => t?.close());

  it('a key sees its own account\'s sites only; another account\'s site is 404 exactly like a missing one', async () => {
    const { cookie } = await signIn(t, t.cloud!.keyA);
    const sites = JSON.parse((await t.request('/dashboard/data/sites', { headers: { Cookie: cookie } })).text) as { sites: { id: string }[] };
    expect(sites.sites.map((s) => s.id)).toEqual(['ST-demo']);
    const foreign = await t.request('/dashboard/data/stats?site_id=ST-globex', { headers: { Cookie: cookie } });
    const missing = await t.request('/dashboard/data/stats?site_id=ST-nothere', { headers: { Cookie: cookie } });
    expect([foreign.status, foreign.text]).toEqual([404, '{"error":"Site not found."}']);
    expect(missing.text).toBe(foreign.text);
    const other = await signIn(t, t.cloud!.keyB);
    const theirs = JSON.parse((await t.request('/dashboard/data/sites', { headers: { Cookie: other.cookie } })).text) as { sites: { id: string }[] };
    expect(theirs.sites.map((s) => s.id)).toEqual(['ST-globex']);
  });

  it('revoking the key ends its sessions at their next request', async () => {
    const first = await signIn(t, t.cloud!.keyA);
    const second = await signIn(t, t.cloud!.keyA);
    const live = (cookie: string) => t.request('/dashboard/data/live?site_id=ST-demo', { headers: { Cookie: cookie } });
    expect((await live(first.cookie)).status).toBe(200);
    const before = t.liveSessions();
    expect(await t.backend.accounts.revokeKey(t.cloud!.accountA, t.cloud!.keyAId)).toBe(true);
    expect((await live(first.cookie)).status).toBe(401);
    const page = await t.request('/', { headers: { Cookie: second.cookie } });
    expect(page.text).toContain('action="dashboard/sign-in"');
    expect(t.liveSessions()).toBe(before - 2);
    expect((await signIn(t, t.cloud!.keyA)).reply.status).toBe(401);
  });
});

describe('the standalone server', () => {
  it('serves the dashboard at / next to /api/v1, /tracker.js and /collect', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'siteline-dashboard-server-'));
    const cert = ensureDevCertificate(dir);
    const key = 'standalone-dashboard-key-0123456789abcdef';
    const config = parseConfig({ SERVICE_API_KEY: key, DATABASE_URL: ':memory:', PORT: '0', TLS_CERT_FILE: cert.certFile, TLS_KEY_FILE: cert.keyFile }, dir);
    const running = await startServer(config, await openBackend(config.database, { role: 'serve' }), { logger: silentLogger });
    const ca = readFileSync(cert.certFile);
    const get = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
        https.get({ host: '127.0.0.1', port: running.port, path, ca, headers, servername: 'localhost' }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (c) => (body += c)).on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body }));
        }).on('error', reject);
      });
    try {
      const page = await get('/');
      expect([page.status, page.type]).toEqual([200, 'text/html; charset=utf-8']);
      expect(page.body).toContain('action="dashboard/sign-in"');
      expect((await get('/api/v1/live?site_id=ST-none', { Authorization: `Bearer ${key}` })).body).toBe('{"error":"Site not found."}');
      expect((await get('/tracker.js')).type).toBe('text/javascript; charset=utf-8');
      expect((await get('/elsewhere')).body).toBe('{"error":"Not Found"}');
    } finally {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
