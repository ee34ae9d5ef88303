/**
 * The account interface in real headless Chromium over real HTTPS, on SQLite and on a real
 * ClickHouse server: an owner opens the operator's one-time link, sets a password, signs in,
 * creates a key (the API answers it), revokes it (401), adds a site, edits its name and
 * domain, adds a goal (in GET /goals), invites a viewer who gets 403 on every owner page;
 * refused forms; and the session started on one server keeps working on a second server over
 * the same backend. axe-core on every page; screenshots only into a temporary folder
 * (printed).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Backend, LINK_TTL_MS, openSqliteBackend } from '@siteline/core';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClickHouseBackend } from '../../../clickhouse/src/backend.js';
import { clickhouseAvailable, startClickHouse, type TestServer, warnIfUnavailable } from '../../../clickhouse/src/test-server.js';
import { startDashboard, type TestDashboard } from '../dashboard/test-helpers.js';
import { setPasswordUrl } from './links.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'siteline-account-screens-'));
const OWNER_PASSWORD = 'tulip-orbit-42-canyon';
warnIfUnavailable('account interface in Chromium on ClickHouse');

let browser: Browser;
let clickhouse: Promise<TestServer> | undefined;
beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
afterAll(async () => {
  await browser?.close();
  await (await clickhouse)?.stop();
  console.log(`account screenshots: ${SCREENSHOTS}`);
});

/** Waits until every dashboard panel has its answer (none busy). */
const settled = (page: Page) =>
  page.waitForFunction(() => {
    const panels = [...document.querySelectorAll('section[data-panel]')];
    return panels.length >= 9 && panels.every((p) => p.getAttribute('aria-busy') === 'false');
  }, undefined, { timeout: 30_000 });

/** Serious and critical axe-core findings on the page (injected through DevTools, so the CSP does not apply to it). */
async function axe(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }> } }).axe.run());
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

interface Engine {
  name: string;
  skip: boolean;
  /** Opens the backend of the given server number (0, 1) on the same data. */
  open(dir: string, n: number): Promise<Backend>;
}

const ENGINES: Engine[] = [
  { name: 'sqlite', skip: false, open: async (dir) => openSqliteBackend(join(dir, 'accounts.db')) },
  {
    name: 'clickhouse',
    skip: !clickhouseAvailable,
    open: async () => openClickHouseBackend({ url: (await (clickhouse ??= startClickHouse())).url, database: 'account_browser' }),
  },
];

for (const engine of ENGINES) {
  describe.skipIf(engine.skip)(`the account interface in Chromium on ${engine.name}`, () => {
    const dir = mkdtempSync(join(tmpdir(), `siteline-account-${engine.name}-`));
    let offset = 0; // moves the dashboards' clock (link expiry)
    const now = () => Date.now() + offset;
    let a: TestDashboard;
    let b: TestDashboard;
    const problems: string[] = [];
    const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${engine.name}-${name}.png`), fullPage: true });
    const newPage = async () => {
      const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: 'en-US', viewport: { width: 1280, height: 900 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const page = await context.newPage();
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      // The refusals this test provokes (400, 401, 403, 429) show up as failed loads; anything else is a problem.
      page.on('console', (m) => { if (m.type() === 'error' && !/status of (400|401|403|429)/.test(m.text())) problems.push(`console: ${m.text()}`); });
      return page;
    };
    const api = (t: TestDashboard, path: string, key: string) => t.request(`/api/v1${path}`, { headers: { Authorization: `Bearer ${key}` } });
    let ownerLink: string;
    let viewerLink: string;

    beforeAll(async () => {
      a = await startDashboard({ cloud: true, backend: await engine.open(dir, 0), dashboard: { now } });
      b = await startDashboard({ cloud: true, seed: false, backend: await engine.open(dir, 1), dashboard: { now } });
      const { link } = await a.people.addUser(a.cloud!.accountA, `owner-${engine.name}@acme.test`, 'owner');
      ownerLink = setPasswordUrl(a.origin, link);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('the owner: link, password, sign-in, a key the API accepts then refuses once revoked, a site (added, edited) and a goal in GET /goals, an invitation', async () => {
      const page = await newPage();
      await page.goto(ownerLink);
      expect(await axe(page)).toEqual([]);
      await shot(page, '1-set-password');
      await page.fill('#new-password', OWNER_PASSWORD);
      await Promise.all([page.waitForURL(`${a.origin}/`), page.click('button[type=submit]')]);
      expect(await axe(page)).toEqual([]);
      await shot(page, '2-sign-in');
      await page.fill('#email', `owner-${engine.name}@acme.test`);
      await page.fill('#password', OWNER_PASSWORD);
      await Promise.all([page.waitForSelector('[data-panel=stats] .figure'), page.click('form[aria-label="Sign in with email and password"] button')]);
      await settled(page);
      const [cookie] = await page.context().cookies();
      expect(cookie).toMatchObject({ name: '__Host-siteline_session', httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
      expect(await axe(page)).toEqual([]);
      await shot(page, '3-dashboard');

      await page.click('a:has-text("Account")');
      await page.waitForSelector('h1:has-text("Sites")');
      await page.click('nav a:has-text("API keys")');
      await page.fill('#key-name', 'reporting backend');
      await page.click('button:has-text("Create key")');
      const key = await page.inputValue('#new-key');
      expect(key).toMatch(/^st_[0-9a-f]{64}$/);
      await page.click('button[data-copy=new-key]');
      await page.waitForSelector('button[data-copy=new-key]:has-text("Copied")');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
      expect(await axe(page)).toEqual([]);
      await shot(page, '4-keys-created');
      expect((await api(a, '/stats?site_id=ST-demo&period=7d', key)).status).toBe(200);
      expect((await api(b, '/stats?site_id=ST-demo&period=7d', key)).status).toBe(200);
      await page.click('nav a:has-text("API keys")'); // the list: the key masked only
      expect(await page.content()).not.toContain(key);
      expect(await page.textContent('table')).toContain(`${key.slice(0, 4)}…${key.slice(-4)}`);
      await page.click('button:has-text("Revoke reporting backend")');
      await page.waitForSelector('text=Key revoked');
      expect(await api(a, '/stats?site_id=ST-demo&period=7d', key)).toMatchObject({ status: 401, text: '{"error":"Unauthorized"}' });
      expect((await api(b, '/stats?site_id=ST-demo&period=7d', key)).status).toBe(401);
      await shot(page, '5-keys-revoked');

      await page.click('nav a:has-text("Sites")');
      await page.fill('#site-name', 'Shop');
      await page.fill('#site-domain', 'shop.acme.test');
      await page.fill('#site-timezone', 'Europe/Berlin');
      await page.click('button:has-text("Add site")');
      const added = await page.textContent('[role=status]');
      const siteId = /added as (ST-[A-Za-z0-9]{12})/.exec(added ?? '')![1]!;
      expect(await page.inputValue(`#snippet-${siteId}`)).toContain(`data-site="${siteId}"`);
      expect(await axe(page)).toEqual([]);
      await shot(page, '6-sites');
      await page.click(`summary:has-text("Edit Shop")`); // the edit form: name and domain; the time zone read-only
      await page.fill(`#edit-name-${siteId}`, 'Shop EU');
      await page.fill(`#edit-domain-${siteId}`, 'eu.shop.acme.test');
      await page.click('button:has-text("Save Shop")');
      await page.waitForSelector(`text=Site Shop EU (${siteId}) saved.`);
      expect(await page.textContent(`li:has(#snippet-${siteId}) h3`)).toBe('Shop EU');
      expect(await axe(page)).toEqual([]);
      await shot(page, '6b-site-edited');
      const seen = (await b.backend.storage.listSites({ accountId: a.cloud!.accountA })).find((s) => s.id === siteId); // through the second server's backend
      expect(seen).toMatchObject({ name: 'Shop EU', domain: 'eu.shop.acme.test', timezone: 'Europe/Berlin' });
      await page.click(`a[href="goals?site_id=${siteId}"]`);
      await page.fill('#goal-value', 'Signup');
      await page.click('button:has-text("Add goal")');
      await page.waitForSelector('td:has-text("Signup")');
      expect(await axe(page)).toEqual([]);
      await shot(page, '7-goals');
      expect(JSON.parse((await api(a, `/goals?site_id=${siteId}&period=7d`, a.cloud!.keyA)).text)).toEqual({ goals: [{ goal: 'Signup', visitors: 0, conversions: 0, conversion_rate: 0 }] });

      await page.click('nav a:has-text("Users")');
      await page.fill('#invite-email', `viewer-${engine.name}@acme.test`);
      await page.click('button:has-text("Invite")');
      viewerLink = await page.inputValue('#invite-link');
      expect(viewerLink).toMatch(/\/dashboard\/set-password\?token=[A-Za-z0-9_-]{43}$/);
      expect(await axe(page)).toEqual([]);
      await shot(page, '8-users');
      await page.click('nav a:has-text("Password")');
      expect(await axe(page)).toEqual([]);
      await shot(page, '9-password');

      // The same browser, now through the second server: the session lives in the backend.
      await page.goto(`${b.origin}/dashboard/account/keys`);
      await page.fill('#key-name', 'made through the second server');
      await page.click('button:has-text("Create key")');
      const second = await page.inputValue('#new-key');
      expect((await api(a, '/live?site_id=ST-demo', second)).status).toBe(200);
      await page.goto(`${b.origin}/?site_id=ST-demo`);
      await page.waitForSelector('[data-panel=stats] .figure');

      // A tampered CSRF token, then a form from another site: refused, nothing made.
      await page.goto(`${a.origin}/dashboard/account/keys`);
      await page.fill('#key-name', 'tampered');
      await page.evaluate(() => document.querySelectorAll<HTMLInputElement>('input[name=csrf]').forEach((i) => (i.value = 'x'.repeat(43))));
      const [tampered] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('button:has-text("Create key")')]);
      expect(tampered.status()).toBe(403);
      expect(await page.textContent('[role=alert]')).toContain('This form is out of date');
      await shot(page, '10-csrf-refused');
      await page.route('https://attacker.example/**', (route) => route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><title>x</title><form method="post" action="${a.origin}/dashboard/account/keys"><input name="name" value="cross-site"></form><script>document.forms[0].submit()</script></html>`,
      }));
      const [cross] = await Promise.all([page.waitForResponse((r) => r.url().startsWith(a.origin) && r.request().method() === 'POST'), page.goto('https://attacker.example/')]);
      expect([401, 403]).toContain(cross.status()); // SameSite=Strict: no cookie went with it; and the Origin is not this server's
      expect((await a.backend.accounts.listKeys(a.cloud!.accountA)).map((k) => k.name)).not.toContain('cross-site');
      expect((await a.backend.accounts.listKeys(a.cloud!.accountA)).map((k) => k.name)).not.toContain('tampered');
      await page.context().close();
    }, 180_000);

    it('the viewer: link, sign-in, the dashboard, 403 on every owner page; reused and expired links and a password flood refused', async () => {
      const page = await newPage();
      await page.goto(viewerLink);
      await page.fill('#new-password', 'viewer-password-77');
      await Promise.all([page.waitForURL(`${a.origin}/`), page.click('button[type=submit]')]);
      await page.fill('#email', `viewer-${engine.name}@acme.test`);
      await page.fill('#password', 'viewer-password-77');
      await Promise.all([page.waitForSelector('[data-panel=stats] .figure'), page.click('form[aria-label="Sign in with email and password"] button')]);
      for (const section of ['keys', 'sites', 'goals', 'users']) {
        const reply = await page.goto(`${a.origin}/dashboard/account/${section}`);
        expect([section, reply!.status()]).toEqual([section, 403]);
      }
      expect(await page.textContent('h1')).toBe('Owners only');
      expect(await axe(page)).toEqual([]);
      await shot(page, '11-viewer-403');

      const reused = await newPage();
      await reused.goto(viewerLink);
      await reused.fill('#new-password', 'another-viewer-pass-1');
      const [refused] = await Promise.all([reused.waitForResponse((r) => r.request().method() === 'POST'), reused.click('button[type=submit]')]);
      expect(refused.status()).toBe(400);
      expect(await reused.textContent('[role=alert]')).toContain('This link is not valid');
      await shot(reused, '12-link-reused');
      const { link } = await a.people.addUser(a.cloud!.accountA, `late-${engine.name}@acme.test`, 'viewer');
      offset = LINK_TTL_MS + 1_000;
      await reused.goto(setPasswordUrl(a.origin, link));
      await reused.fill('#new-password', 'another-viewer-pass-1');
      const [expired] = await Promise.all([reused.waitForResponse((r) => r.request().method() === 'POST'), reused.click('button[type=submit]')]);
      offset = 0;
      expect(expired.status()).toBe(400);

      await reused.goto(`${a.origin}/`);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        await reused.fill('#email', `viewer-${engine.name}@acme.test`);
        await reused.fill('#password', `wrong-guess-${i}`);
        const [reply] = await Promise.all([reused.waitForResponse((r) => r.request().method() === 'POST'), reused.click('form[aria-label="Sign in with email and password"] button')]);
        statuses.push(reply.status());
        await reused.waitForURL(`${a.origin}/dashboard/sign-in`);
        await reused.waitForLoadState();
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      expect(await reused.textContent('[role=alert]')).toBe('Too many failed sign-ins for this email. Try again in 1 seconds.');
      expect(await axe(reused)).toEqual([]);
      await shot(reused, '13-throttled');
      expect(problems).toEqual([]);
    }, 180_000);
  });
}
