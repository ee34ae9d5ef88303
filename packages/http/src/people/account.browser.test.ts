/**
 * The account interface in real headless Chromium over real HTTPS, on SQLite and on a real
 * ClickHouse server: an owner opens the operator's one-time link, sets a password, signs in,
 * creates a key (the API answers it), revokes it (401), adds a site, edits its name and
 * domain, adds a goal (in GET /goals), invites a viewer who gets 403 on every owner page;
 * refused forms; and the session started on one server keeps working on a second server over
 * the same backend. axe-core on every page; screenshots only into a temporary folder
 * (printed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { type Backend, LINK_TTL_MS, openSqliteBackend } from '@siteline/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClickHouseBackend } from '../../../clickhouse/src/backend.js';
import { clickhouseAvailable, startClickHouse, type TestServer, warnIfUnavailable } from '../../../clickhouse/src/testing/test-server.js';
import { runCli } from '../cli/main.js';
import { COMMUNITY_KEY, startDashboard, type TestDashboard } from '../dashboard/test-helpers.js';
import {
  addAndDeleteFunnel, addAndEditSite, addSignupGoal, axe, inviteViewer, launchChromium, pages, sectionStatuses, setPasswordThroughLink, signInInBrowser, signUpAndIn,
} from './account-browser-steps.js';
import { setPasswordUrl } from './links.js';

const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'siteline-account-screens-'));
const OWNER_PASSWORD = 'tulip-orbit-42-canyon';
const OWNER_SECTIONS = ['keys', 'sites', 'goals', 'funnels', 'users'];
warnIfUnavailable('account interface in Chromium on ClickHouse');

let browser: Browser;
let clickhouse: Promise<TestServer> | undefined;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await (await clickhouse)?.stop();
  console.log(`account screenshots: ${SCREENSHOTS}`);
});

interface Engine {
  name: string;
  skip: boolean;
  /** Opens a backend on the data of `database` (the same data for the same name). */
  open(dir: string, database: string): Promise<Backend>;
  /** DATABASE_URL of that data, for `siteline` commands. */
  url(dir: string, database: string): Promise<string>;
}

const clickhouseUrl = async () => (await (clickhouse ??= startClickHouse())).url;
const ENGINES: Engine[] = [
  { name: 'sqlite', skip: false, open: async (dir, database) => openSqliteBackend(join(dir, `${database}.db`)), url: async (dir, database) => join(dir, `${database}.db`) },
  {
    name: 'clickhouse',
    skip: !clickhouseAvailable,
    open: async (_dir, database) => openClickHouseBackend({ url: await clickhouseUrl(), database }),
    url: async (_dir, database) => `${(await clickhouseUrl()).replace('http://', 'clickhouse://default@')}/${database}`,
  },
];

class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

/** Runs a `siteline` command in-process on the given DATABASE_URL; returns its standard output, or throws with its errors. */
async function siteline(args: string[], dir: string, env: Record<string, string>): Promise<string> {
  const [stdout, stderr] = [new Collect(), new Collect()];
  const code = await runCli(args, { cwd: dir, env, stdin: Readable.from(['']), stdout, stderr });
  if (code !== 0) throw new Error(`siteline ${args.join(' ')} exited ${code}: ${stderr.text}`);
  return stdout.text;
}

for (const engine of ENGINES) {
  describe.skipIf(engine.skip)(`the account interface in Chromium on ${engine.name} (Cloud)`, () => {
    const dir = mkdtempSync(join(tmpdir(), `siteline-account-${engine.name}-`));
    let offset = 0; // moves the dashboards' clock (link expiry)
    let still: number | undefined; // holds it still (a flood: no throttle wait runs out between guesses on a slow machine)
    const now = () => still ?? Date.now() + offset;
    let a: TestDashboard;
    let b: TestDashboard;
    const { problems, shot, open: newPage } = pages(() => browser, SCREENSHOTS, engine.name);
    const api = (t: TestDashboard, path: string, key: string) => t.request(`/api/v1${path}`, { headers: { Authorization: `Bearer ${key}` } });
    let ownerLink: string;
    let viewerLink: string;

    beforeAll(async () => {
      a = await startDashboard({ cloud: true, backend: await engine.open(dir, 'account_browser'), dashboard: { now } });
      b = await startDashboard({ cloud: true, seed: false, backend: await engine.open(dir, 'account_browser'), dashboard: { now } });
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
      const shotOf = (name: string) => shot(page, name);
      await page.goto(ownerLink);
      expect(await axe(page)).toEqual([]);
      await shot(page, '1-set-password');
      await setPasswordThroughLink(page, ownerLink, a.origin, OWNER_PASSWORD);
      expect(await axe(page)).toEqual([]);
      await shot(page, '2-sign-in');
      await signInInBrowser(page, `owner-${engine.name}@acme.test`, OWNER_PASSWORD);
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
      // Revoking asks first: "Revoke…" opens the confirmation, whose button revokes.
      expect(await page.isVisible('button:has-text("Revoke reporting backend")')).toBe(false);
      await page.click('tr:has-text("reporting backend") summary:has-text("Revoke…")');
      expect(await page.textContent('tr:has-text("reporting backend") details.confirm p')).toBe('Requests with “reporting backend” get 401 at once, and it cannot be turned back on.');
      await shot(page, '5a-keys-revoke-confirm');
      await page.click('button:has-text("Revoke reporting backend")');
      await page.waitForSelector('text=Key revoked');
      expect(await api(a, '/stats?site_id=ST-demo&period=7d', key)).toMatchObject({ status: 401, text: '{"error":"Unauthorized"}' });
      expect((await api(b, '/stats?site_id=ST-demo&period=7d', key)).status).toBe(401);
      await shot(page, '5-keys-revoked');

      const siteId = await addAndEditSite(page, shotOf);
      const seen = (await b.backend.storage.listSites({ accountId: a.cloud!.accountA })).find((s) => s.id === siteId); // through the second server's backend
      expect(seen).toMatchObject({ name: 'Shop EU', domain: 'eu.shop.acme.test', timezone: 'Europe/Berlin' });
      await addSignupGoal(page, siteId, shotOf);
      expect(JSON.parse((await api(a, `/goals?site_id=${siteId}&period=7d`, a.cloud!.keyA)).text)).toEqual({ goals: [{ goal: 'Signup', visitors: 0, conversions: 0, conversion_rate: 0 }] });
      await addAndDeleteFunnel(page, siteId, shotOf);

      viewerLink = await inviteViewer(page, `viewer-${engine.name}@acme.test`, shotOf);
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
      await signUpAndIn(page, viewerLink, a.origin, `viewer-${engine.name}@acme.test`, 'viewer-password-77');
      expect(await sectionStatuses(page, a.origin, OWNER_SECTIONS)).toEqual(OWNER_SECTIONS.map((s) => [s, 403]));
      expect(await page.textContent('h1')).toBe('Owners only');
      expect(await page.textContent('main p')).toBe('Only an owner of this account can open this page. Ask an owner to change your role.');
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
      still = Date.now();
      for (let i = 0; i < 6; i++) {
        await reused.fill('#email', `viewer-${engine.name}@acme.test`);
        await reused.fill('#password', `wrong-guess-${i}`);
        const [reply] = await Promise.all([reused.waitForResponse((r) => r.request().method() === 'POST'), reused.click('form[aria-label="Sign in with email and password"] button')]);
        statuses.push(reply.status());
        await reused.waitForURL(`${a.origin}/dashboard/sign-in`);
        await reused.waitForLoadState();
      }
      still = undefined;
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      expect(await reused.textContent('[role=alert]')).toBe('Too many failed sign-ins for this email. Try again in 1 second.');
      expect(await axe(reused)).toEqual([]);
      await shot(reused, '13-throttled');
      expect(problems).toEqual([]);
    }, 180_000);
  });

  describe.skipIf(engine.skip)(`the account interface in Chromium on ${engine.name} (Community)`, () => {
    const dir = mkdtempSync(join(tmpdir(), `siteline-community-${engine.name}-`));
    let t: TestDashboard;
    const { problems, shot, open: newPage } = pages(() => browser, SCREENSHOTS, `community-${engine.name}`);
    const owner = `owner-${engine.name}@example.com`;
    let ownerLink: string;
    let viewerLink: string;

    beforeAll(async () => {
      t = await startDashboard({ backend: await engine.open(dir, 'community_browser') });
      // The operator's command, on the same data: the installation's first owner.
      ownerLink = (await siteline(['users', 'add', '--email', owner, '--role', 'owner'], dir, { DATABASE_URL: await engine.url(dir, 'community_browser'), PUBLIC_URL: t.origin })).trim();
    });
    afterAll(async () => {
      await t?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('the owner: the command\'s link, password, sign-in, the pages without keys (404), a site (added, edited) and a goal in GET /goals with SERVICE_API_KEY', async () => {
      expect(ownerLink).toMatch(new RegExp(`^${t.origin.replace(/[.]/g, '\\.')}/dashboard/set-password\\?token=[A-Za-z0-9_-]{43}$`));
      const page = await newPage();
      const shotOf = (name: string) => shot(page, name);
      await signUpAndIn(page, ownerLink, t.origin, owner, OWNER_PASSWORD);
      expect(await axe(page)).toEqual([]);
      await shot(page, '3-dashboard');
      await page.click('a:has-text("Account")');
      await page.waitForSelector('h1:has-text("Sites")');
      expect(await page.$$eval('nav[aria-label=Account] a', (links) => links.map((l) => l.textContent))).toEqual(['Dashboard', 'Sites', 'Goals', 'Funnels', 'Users', 'Password']);
      // No key pages in the Community edition: its one key is SERVICE_API_KEY, set by the operator.
      expect(await sectionStatuses(page, t.origin, ['keys'])).toEqual([['keys', 404]]);
      expect(await page.textContent('h1')).toBe('Not found');
      expect(await axe(page)).toEqual([]);
      await shot(page, '4-no-keys');
      await page.goto(`${t.origin}/dashboard/account/sites`);

      const siteId = await addAndEditSite(page, shotOf);
      expect((await t.backend.storage.listSites()).find((s) => s.id === siteId)).toMatchObject({ name: 'Shop EU', domain: 'eu.shop.acme.test', timezone: 'Europe/Berlin', accountId: null });
      await addSignupGoal(page, siteId, shotOf);
      const goals = await t.request(`/api/v1/goals?site_id=${siteId}&period=7d`, { headers: { Authorization: `Bearer ${COMMUNITY_KEY}` } });
      expect([goals.status, JSON.parse(goals.text)]).toEqual([200, { goals: [{ goal: 'Signup', visitors: 0, conversions: 0, conversion_rate: 0 }] }]);
      await addAndDeleteFunnel(page, siteId, shotOf);

      viewerLink = await inviteViewer(page, `viewer-${engine.name}@example.com`, shotOf);
      await page.click('nav a:has-text("Password")');
      expect(await axe(page)).toEqual([]);
      await shot(page, '9-password');
      await page.context().close();
    }, 180_000);

    it('the viewer: sign-in, the dashboard, 403 on every owner page and 404 on keys', async () => {
      const page = await newPage();
      await signUpAndIn(page, viewerLink, t.origin, `viewer-${engine.name}@example.com`, 'viewer-password-77');
      expect(await axe(page)).toEqual([]);
      expect(await sectionStatuses(page, t.origin, OWNER_SECTIONS)).toEqual([['keys', 404], ['sites', 403], ['goals', 403], ['funnels', 403], ['users', 403]]);
      expect(await page.textContent('h1')).toBe('Owners only');
      expect(await page.textContent('main p')).toBe('Only an owner of this installation can open this page. Ask an owner to change your role.');
      expect(await axe(page)).toEqual([]);
      await shot(page, '11-viewer-403');
      // An owner's action posted anyway: 403, nothing added.
      await page.goto(`${t.origin}/dashboard/account/password`);
      const csrf = await page.inputValue('input[name=csrf]');
      const posted = await page.evaluate(async (token) => (await fetch('sites', { method: 'POST', body: new URLSearchParams({ csrf: token, name: 'Viewer site' }) })).status, csrf);
      expect(posted).toBe(403);
      expect((await t.backend.storage.listSites()).map((s) => s.name)).not.toContain('Viewer site');
      expect(problems).toEqual([]);
    }, 180_000);
  });
}
