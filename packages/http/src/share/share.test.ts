/**
 * Shared links over real HTTPS on loopback, the demo data in a real SQLite file (Cloud: ST-demo
 * of account A, ST-globex of account B): what a link's address opens and what it does not,
 * the password and its throttle, revocation, the framing headers, the segment, and logs
 * without the token.
 */
import { SharedLinks } from '@siteline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../dashboard/http-io.js';
import { startDashboard, type TestDashboard } from '../dashboard/test-helpers.js';
import { cookieOf, postForm } from '../people/people-test-helpers.js';
import { SHARE_COOKIE } from './routes.js';

describe('shared links over HTTPS', () => {
  let t: TestDashboard;
  let links: SharedLinks;
  /** The dashboard's clock: stopped while a test counts guesses, so the throttle's one-second wait cannot run out on a busy machine. */
  let still: number | undefined;
  const site = async (id: string) => (await t.backend.storage.getSite(id))!;
  beforeAll(async () => {
    t = await startDashboard({ cloud: true, dashboard: { now: () => still ?? Date.now() } });
    links = new SharedLinks(t.backend.shares, t.people);
  });
  afterAll(() => t?.close());

  const api = (path: string) => t.request(`/api/v1${path}`, { headers: { Authorization: `Bearer ${t.key}` } });

  it("a link opens its site's dashboard: the shell with its site and no sign-out or account link, the address without a slash sent to the one with it", async () => {
    const { token } = await links.create(await site('ST-demo'), { name: 'Client' });
    expect((await t.request(`/share/${token}?period=7d`)).headers.location).toBe(`/share/${token}/?period=7d`);
    const page = await t.request(`/share/${token}/`);
    expect(page.status).toBe(200);
    expect(page.headers).toMatchObject({ 'content-security-policy': CONTENT_SECURITY_POLICY, 'x-frame-options': 'DENY', 'cache-control': 'no-store' });
    expect(page.text).toContain('<meta name="siteline-share" content="ST-demo">');
    expect(page.text).toContain('<html lang="en" data-theme="light">');
    expect(page.text).toMatch(/<script type="module" src="\.\.\/\.\.\/dashboard\/assets\/app\.[0-9a-f]{16}\.js">/);
    expect(page.text).not.toContain('sign-out');
    expect(page.text).not.toContain('csrf');
    expect(page.text).not.toContain('siteline-account');
    expect(page.text).not.toContain(t.key);
    const dark = await t.request(`/share/${token}/?embed=true&theme=dark`);
    expect(dark.text).toContain('<html lang="en" data-theme="dark">');
    expect(dark.text).toContain('<meta name="siteline-embed" content="true">');
    expect(dark.text).not.toContain('<header');
    expect((await t.request(`/share/${token}/?theme=<script>`)).text).toContain('data-theme="light"');
  });

  it('its data is exactly the API answer for its site, CSV included; any other site, /export, the account pages and the API itself refuse it', async () => {
    const { token } = await links.create(await site('ST-demo'), { name: 'Data' });
    const data = (path: string) => t.request(`/share/${token}/dashboard/data/${path}`);
    for (const path of ['stats?site_id=ST-demo&period=7d&compare=previous_period', 'pages?site_id=ST-demo&period=30d', 'goals?site_id=ST-demo&period=7d', 'stats/timeseries?site_id=ST-demo&period=7d&interval=day']) {
      const [shared, direct] = [await data(path), await api(`/${path}`)];
      expect([shared.status, shared.text]).toEqual([200, direct.text]);
    }
    const csv = await data('pages?site_id=ST-demo&period=7d&format=csv');
    expect([csv.status, csv.headers['content-type'], csv.text]).toEqual([200, 'text/csv; charset=utf-8', (await api('/pages?site_id=ST-demo&period=7d&format=csv')).text]);
    const sites = JSON.parse((await data('sites')).text) as { sites: { id: string }[]; segment: unknown[] };
    expect(sites.sites.map((s) => s.id)).toEqual(['ST-demo']);
    expect(sites.segment).toEqual([]);

    expect((await data('stats?site_id=ST-globex&period=7d')).status).toBe(404); // another account's site
    expect((await data('stats?site_id=ST-nosuchsite&period=7d')).status).toBe(404);
    expect((await data('export?site_id=ST-demo&from=2026-11-01&to=2026-11-02')).status).toBe(404);
    expect((await data('openapi.json')).status).toBe(404);
    expect((await t.request(`/share/${token}/dashboard/account/sites`)).status).toBe(404);
    expect((await t.request(`/share/${token}/dashboard/sign-out`, { method: 'POST' })).status).toBe(404);
    // The link's address gives nothing outside it: the dashboard, the account pages and the API ask for their own credentials.
    const referer = { Referer: `${t.origin}/share/${token}/` };
    expect((await t.request('/dashboard/data/stats?site_id=ST-demo', { headers: referer })).status).toBe(401);
    expect((await t.request('/dashboard/account/sites', { headers: referer })).status).toBe(303);
    expect((await t.request('/api/v1/stats?site_id=ST-demo', { headers: referer })).status).toBe(401);
    expect((await t.request(`/api/v1/stats?site_id=ST-demo&api_key=${token}`)).status).toBe(401);
  });

  it('an unknown, mistyped or revoked token answers the page of a link that does not work (404) and 401 on data; revoking fails the next request of an open page', async () => {
    const { link, token } = await links.create(await site('ST-demo'), { name: 'Soon revoked' });
    expect((await t.request(`/share/${token}/dashboard/data/stats?site_id=ST-demo`)).status).toBe(200);
    await links.revoke('ST-demo', link.id);
    const data = await t.request(`/share/${token}/dashboard/data/stats?site_id=ST-demo`);
    expect([data.status, data.text]).toEqual([401, '{"error":"Unauthorized"}']);
    for (const wrong of [token, `${token.slice(0, -2)}AA`, 'short', '']) {
      const page = await t.request(`/share/${wrong}/`);
      expect(page.status).toBe(404);
      expect(page.text).toContain('This shared link does not work');
    }
  });

  it('a password link asks for it (the form, 401 on data), sets a cookie for that link only, and throttles wrong guesses with 429 and Retry-After', async () => {
    const { token } = await links.create(await site('ST-demo'), { name: 'Board', password: 'harbour-lantern-77' });
    const form = await t.request(`/share/${token}/?period=7d`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('<form method="post" action="password">');
    expect(form.text).toContain('<input type="hidden" name="view" value="?period=7d">');
    expect(form.text).not.toContain('siteline-share');
    expect(form.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY); // never framed
    expect((await t.request(`/share/${token}/dashboard/data/stats?site_id=ST-demo`)).status).toBe(401);

    const post = (password: string, origin?: string | null) => postForm(t, `/share/${token}/password`, { password, view: '?period=7d' }, origin === undefined ? {} : { origin });
    expect((await post('harbour-lantern-77', 'https://evil.example')).status).toBe(403);
    const wrong = await post('harbour-lantern-78');
    expect([wrong.status, wrong.text.includes('The password is not right.')]).toEqual([401, true]);
    const right = await post('harbour-lantern-77');
    expect(right.status).toBe(303);
    expect(right.headers.location).toBe(`/share/${token}/?period=7d`);
    const setCookie = String(right.headers['set-cookie']);
    expect(setCookie).toMatch(new RegExp(`^${SHARE_COOKIE}=[A-Za-z0-9_-]{43}; HttpOnly; Secure; SameSite=Lax; Path=/share/${token}/$`));
    const cookie = cookieOf(right);
    expect((await t.request(`/share/${token}/`, { headers: { Cookie: cookie } })).text).toContain('siteline-share');
    expect((await t.request(`/share/${token}/dashboard/data/stats?site_id=ST-demo`, { headers: { Cookie: cookie } })).status).toBe(200);
    const other = await links.create(await site('ST-demo'), { name: 'Other board', password: 'harbour-lantern-99' });
    expect((await t.request(`/share/${other.token}/dashboard/data/stats?site_id=ST-demo`, { headers: { Cookie: cookie } })).status).toBe(401);
    expect((await t.request('/dashboard/data/stats?site_id=ST-demo', { headers: { Cookie: `__Host-siteline_session=${cookie.split('=')[1]}` } })).status).toBe(401);

    // The right password cleared the count: five wrong guesses from here, and the sixth attempt waits a second, the right password included.
    still = Date.now();
    for (let i = 0; i < 5; i++) expect((await post(`wrong-guess-number-${i}`)).status).toBe(401);
    const held = await post('harbour-lantern-77');
    still = undefined;
    expect([held.status, held.headers['retry-after']]).toEqual([429, '1']);
    expect(held.text).toContain('Too many wrong passwords for this link. Try again in 1 second.');
  });

  it('a link embeddable by listed origins says so in frame-ancestors, without X-Frame-Options; every other page keeps none', async () => {
    const { token } = await links.create(await site('ST-demo'), { name: 'Blog', frameAncestors: ['https://blog.example.com', 'http://127.0.0.1:8080'] });
    const page = await t.request(`/share/${token}/?embed=true`);
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY.replace("frame-ancestors 'none'", 'frame-ancestors https://blog.example.com http://127.0.0.1:8080'));
    expect(page.headers['x-frame-options']).toBeUndefined();
    expect((await t.request(`/share/${token}x/`)).headers['x-frame-options']).toBe('DENY');
    expect((await t.request('/')).headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  });

  it("a segment is added to every read and cannot be removed: the answers are the API's with those filters too; /live is not offered", async () => {
    const segment = '[["is","device_type",["Mobile"]]]';
    const { token } = await links.create(await site('ST-demo'), { name: 'Mobile only', segment });
    const data = (path: string) => t.request(`/share/${token}/dashboard/data/${path}`);
    const filtered = await api(`/stats?site_id=ST-demo&period=7d&filters=${encodeURIComponent(segment)}`);
    const all = await api('/stats?site_id=ST-demo&period=7d');
    expect((await data('stats?site_id=ST-demo&period=7d')).text).toBe(filtered.text);
    expect(filtered.text).not.toBe(all.text);
    const both = `[["is","device_type",["Mobile"]],["is","country",["DE"]]]`;
    const viewer = `[["is","country",["DE"]]]`;
    expect((await data(`pages?site_id=ST-demo&period=7d&filters=${encodeURIComponent(viewer)}`)).text).toBe((await api(`/pages?site_id=ST-demo&period=7d&filters=${encodeURIComponent(both)}`)).text);
    expect((await data('live?site_id=ST-demo')).status).toBe(404);
    expect(JSON.parse((await data('sites')).text).segment).toEqual([['is', 'device_type', ['Mobile']]]);
  });

  it("the Funnels panel's data: the link's site's saved funnels, and a funnel as the API answers it with the segment; another site's list is 404", async () => {
    const segment = '[["is","device_type",["Mobile"]]]';
    const { token } = await links.create(await site('ST-demo'), { name: 'Funnels', segment });
    const data = (path: string) => t.request(`/share/${token}/dashboard/data/${path}`);
    const saved = await data('saved-funnels?site_id=ST-demo');
    expect([saved.status, JSON.parse(saved.text)]).toEqual([200, { funnels: [
      { name: 'Docs to download', steps: ['Visit /docs*', 'download'] },
      { name: 'Pricing to signup', steps: ['Visit /pricing', 'Visit /signup', 'signup'] },
    ] }]);
    expect((await data('saved-funnels?site_id=ST-globex')).status).toBe(404); // another account's site
    expect((await data('saved-funnels?site_id=ST-nosuchsite')).status).toBe(404);
    const funnel = 'site_id=ST-demo&period=30d&funnel=Pricing+to+signup';
    const shared = await data(`funnels?${funnel}`);
    expect([shared.status, shared.text]).toEqual([200, (await api(`/funnels?${funnel}&filters=${encodeURIComponent(segment)}`)).text]);
    expect(shared.text).not.toBe((await api(`/funnels?${funnel}`)).text);
  });

  it('no log line holds a token', async () => {
    const { token } = await links.create(await site('ST-demo'), { name: 'Logged' });
    await t.request(`/share/${token}/`);
    await t.request(`/share/${token}/dashboard/data/stats?site_id=ST-demo`);
    expect(JSON.stringify(t.logs)).not.toContain(token);
    expect(t.logs.some((l) => l.path === '/share/…/')).toBe(true);
  });
});
