/**
 * The account pages over real HTTPS on a real SQLite file (Cloud and Community): one-time
 * links, password sign-in, keys, sites, goals, users, roles, CSRF and Origin checks, the
 * throttle, two-factor. The same flows in real Chromium (and on ClickHouse) are in
 * account.browser.test.ts.
 */
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidTimeZone, LINK_TTL_MS } from '@siteline/core';
import { startDashboard, type TestDashboard } from '../dashboard/test-helpers.js';
import { cookieOf, csrfIn, postForm, signInWithPassword, userWithPassword } from './people-test-helpers.js';

const PASSWORD = 'tulip-orbit-42-canyon';
const page = (t: TestDashboard, path: string, cookie: string) => t.request(path, { headers: { Cookie: cookie } });
const api = (t: TestDashboard, path: string, key: string) => t.request(`/api/v1${path}`, { headers: { Authorization: `Bearer ${key}` } });

describe('account pages, Cloud edition', () => {
  let t: TestDashboard;
  let clock = Date.parse('2026-11-24T10:00:00Z');
  let owner: string;
  beforeAll(async () => {
    t = await startDashboard({ cloud: true, dashboard: { now: () => clock } });
    owner = await userWithPassword(t, t.cloud!.accountA, 'owner@acme.test', 'owner', PASSWORD);
  });
  afterAll(() => t?.close());

  it('a one-time link: the form, a refused password does not spend it, it sets the password once, and expires after 24 h', async () => {
    const { link } = await t.people.addUser(t.cloud!.accountA, 'new@acme.test', 'viewer');
    const form = await t.request(`/dashboard/set-password?token=${link}`);
    expect([form.status, form.headers['referrer-policy']]).toEqual([200, 'same-origin']); // no-referrer would make Chromium post Origin: null
    expect(form.text).toContain(`<input type="hidden" name="token" value="${link}">`);
    const weak = await postForm(t, '/dashboard/set-password', { token: link, password: 'password123' });
    expect([weak.status, weak.text.includes('This password is among the most common ones; choose another.')]).toEqual([400, true]);
    const crossSite = await postForm(t, '/dashboard/set-password', { token: link, password: PASSWORD }, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    const set = await postForm(t, '/dashboard/set-password', { token: link, password: PASSWORD });
    expect([set.status, set.headers.location]).toEqual([303, '/?notice=password-set']);
    // The sign-in page it leads to says the password is set; the notice is not carried into the view.
    const after = await t.request('/?notice=password-set');
    expect(after.text).toContain('<p class="note" role="status">Your password is set. Sign in with your email and the new password.</p>');
    expect(after.text).toContain('<input type="hidden" name="view" value="">');
    const reused = await postForm(t, '/dashboard/set-password', { token: link, password: 'another-good-pass-9' });
    expect([reused.status, reused.text.includes('This link is not valid: it was used already, has expired, or was mistyped.')]).toEqual([400, true]);

    const late = await t.people.newLink((await t.backend.people.usersByEmail('new@acme.test'))[0]!.id);
    clock += LINK_TTL_MS;
    const expired = await postForm(t, '/dashboard/set-password', { token: late, password: 'another-good-pass-9' });
    expect([expired.status, expired.text.includes('This link is not valid')]).toEqual([400, true]);
    clock -= LINK_TTL_MS;
    expect((await signInWithPassword(t, 'new@acme.test', PASSWORD)).reply.status).toBe(303);
  });

  it('sign-in sets a random id in an HttpOnly, Secure, SameSite=Strict cookie and rotates it; a wrong password is 401 without a cookie', async () => {
    const wrong = await signInWithPassword(t, 'owner@acme.test', 'not-the-password');
    expect([wrong.reply.status, wrong.cookie, wrong.reply.text.includes('The email or the password is not right.')]).toEqual([401, '', true]);
    const first = await signInWithPassword(t, 'owner@acme.test', PASSWORD);
    expect(([] as string[]).concat(first.reply.headers['set-cookie'] ?? [])[0]).toMatch(/^__Host-siteline_session=[A-Za-z0-9_-]{43}; HttpOnly; Secure; SameSite=Strict; Path=\/$/);
    const again = await postForm(t, '/dashboard/sign-in', { email: 'owner@acme.test', password: PASSWORD }, { cookie: first.cookie });
    expect(cookieOf(again)).not.toBe(first.cookie);
    expect((await page(t, '/dashboard/data/sites', first.cookie)).status).toBe(401); // the old id ended at the new sign-in
    const sites = JSON.parse((await page(t, '/dashboard/data/sites', cookieOf(again))).text) as { sites: { id: string }[] };
    expect(sites.sites.map((s) => s.id)).toEqual(['ST-demo']); // the account's sites, without any key
    expect((await page(t, '/', cookieOf(again))).text).toContain('<meta name="siteline-account" content="dashboard/account/">');
  });

  it('keys: created with a name (shown once, with a copy button), listed masked, used by the API, revoked at once (401)', async () => {
    const keys = await page(t, '/dashboard/account/keys', owner);
    const csrf = csrfIn(keys.text);
    const created = await postForm(t, '/dashboard/account/keys', { csrf, name: 'reporting backend' }, { cookie: owner });
    expect(created.status).toBe(201);
    const key = /id="new-key" readonly value="(st_[0-9a-f]{64})"/.exec(created.text)![1]!;
    expect(created.text).toContain('<button type="button" data-copy="new-key">Copy</button>');
    expect((await api(t, '/stats?site_id=ST-demo', key)).status).toBe(200);
    const list = await page(t, '/dashboard/account/keys', owner);
    expect(list.text).not.toContain(key);
    expect(list.text).toContain(`<td>reporting backend</td><td><code>${key.slice(0, 4)}…${key.slice(-4)}</code></td>`);
    const keyId = (await t.backend.accounts.listKeys(t.cloud!.accountA)).find((k) => k.name === 'reporting backend')!.id;
    // Revoking asks first: the list offers "Revoke…", whose form carries confirm=yes; a post without it revokes nothing.
    expect(list.text).toContain('<details class="confirm"><summary>Revoke…</summary><p>Requests with “reporting backend” get 401 at once, and it cannot be turned back on.</p>');
    expect(list.text).toContain(`<input type="hidden" name="key_id" value="${keyId}"><input type="hidden" name="confirm" value="yes"><button type="submit" class="danger" title="Revoke reporting backend">Revoke reporting backend</button>`);
    const unconfirmed = await postForm(t, '/dashboard/account/keys/revoke', { csrf, key_id: keyId }, { cookie: owner });
    expect([unconfirmed.status, unconfirmed.text.includes('Revoking a key needs its confirmation')]).toEqual([422, true]);
    expect((await api(t, '/stats?site_id=ST-demo', key)).status).toBe(200);
    const revoked = await postForm(t, '/dashboard/account/keys/revoke', { csrf, key_id: keyId, confirm: 'yes' }, { cookie: owner });
    expect([revoked.status, revoked.text.includes('Key revoked: requests with it get 401 from now on.')]).toEqual([200, true]);
    expect(await api(t, '/stats?site_id=ST-demo', key)).toMatchObject({ status: 401, text: '{"error":"Unauthorized"}' });
    const other = await postForm(t, '/dashboard/account/keys/revoke', { csrf, key_id: keyId, confirm: 'yes' }, { cookie: owner });
    expect(other.status).toBe(404);
    const unnamed = await postForm(t, '/dashboard/account/keys', { csrf, name: '  ' }, { cookie: owner });
    expect([unnamed.status, unnamed.text.includes('A key needs a descriptive name of 1 to 100 characters.')]).toEqual([422, true]);
  });

  it('sites and goals: added in the pages, the goal in GET /goals; another account\'s site is refused', async () => {
    const form = (await page(t, '/dashboard/account/sites', owner)).text;
    const csrf = csrfIn(form);
    // The time zone is picked from IANA zones by their current names, UTC first (the browser's own zone is chosen by the page's script).
    expect(form).toContain('<select id="site-timezone" name="timezone" required data-local-zone><option value="UTC" selected>UTC (Coordinated Universal Time)</option><optgroup label="Africa">');
    expect(form).toContain('<option value="Europe/Berlin">Berlin, Germany (Central European Time)</option>');
    expect(form).toContain('<option value="Europe/Kyiv">Kyiv, Ukraine (Eastern European Time)</option>');
    expect(form).toContain('<option value="America/Argentina/Buenos_Aires">Buenos Aires, Argentina (Argentina Time)</option>');
    expect(form).not.toContain('value="Europe/Kiev"');
    const zones = [...form.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]!);
    expect(zones.length).toBeGreaterThan(300);
    expect(zones.filter((z) => !isValidTimeZone(z))).toEqual([]); // every zone offered is one a site can have
    const bad = await postForm(t, '/dashboard/account/sites', { csrf, name: 'Shop', domain: 'https://shop', timezone: 'Mars/Base' }, { cookie: owner });
    expect([bad.status, bad.text.includes('Unknown time zone')]).toEqual([422, true]);
    expect(bad.text).toContain('<select id="site-timezone" name="timezone" required><option value="Mars/Base" selected>Mars/Base</option>'); // what was posted, shown again
    const added = await postForm(t, '/dashboard/account/sites', { csrf, name: 'Shop', domain: 'shop.acme.test', timezone: 'Europe/Berlin' }, { cookie: owner });
    expect(added.status).toBe(201);
    const siteId = /Site Shop added as (ST-[A-Za-z0-9]{12})\./.exec(added.text)![1]!;
    expect(added.text).toContain(`data-site=&quot;${siteId}&quot;`);
    const goal = await postForm(t, '/dashboard/account/goals', { csrf, site_id: siteId, type: 'page', value: '/thanks*' }, { cookie: owner });
    expect(goal.status).toBe(201);
    expect(goal.text).toContain('<td><span class="cut" title="Visit /thanks*">Visit /thanks*</span></td>');
    const goals = await api(t, `/goals?site_id=${siteId}&period=7d`, t.cloud!.keyA);
    expect(JSON.parse(goals.text)).toEqual({ goals: [{ goal: 'Visit /thanks*', visitors: 0, conversions: 0, conversion_rate: 0 }] });
    const theirs = await postForm(t, '/dashboard/account/goals', { csrf, site_id: 'ST-globex', type: 'event', value: 'Signup' }, { cookie: owner });
    expect(theirs.status).toBe(404);
    const deleted = await postForm(t, '/dashboard/account/goals/delete', { csrf, site_id: siteId, goal: 'Visit /thanks*' }, { cookie: owner });
    expect(deleted.status).toBe(200);
    expect(JSON.parse((await api(t, `/goals?site_id=${siteId}&period=7d`, t.cloud!.keyA)).text)).toEqual({ goals: [] });
  });

  it('sites: an owner edits name and domain (the list and the dashboard show them), the time zone is read-only; bad input, another account\'s site and a post without CSRF token change nothing', async () => {
    const csrf = csrfIn((await page(t, '/dashboard/account/sites', owner)).text);
    const added = await postForm(t, '/dashboard/account/sites', { csrf, name: 'Docs', domain: 'docs.acme.test', timezone: 'Asia/Tokyo' }, { cookie: owner });
    const siteId = /Site Docs added as (ST-[A-Za-z0-9]{12})\./.exec(added.text)![1]!;
    expect(added.text).toContain(`<input type="hidden" name="site_id" value="${siteId}">`);
    expect(added.text).toContain('Time zone: <strong>Asia/Tokyo</strong>. It cannot change: the site\'s data is stored by its local days.');
    const shown = async () => (JSON.parse((await page(t, '/dashboard/data/sites', owner)).text) as { sites: { id: string }[] }).sites.find((s) => s.id === siteId);
    const edit = (fields: Record<string, string>, cookie = owner) => postForm(t, '/dashboard/account/sites/edit', { site_id: siteId, ...fields }, { cookie });

    const saved = await edit({ csrf, name: 'Handbook', domain: 'WWW.Handbook.Acme.test', timezone: 'UTC' });
    expect([saved.status, saved.text.includes(`Site Handbook (${siteId}) saved.`)]).toEqual([200, true]);
    expect(saved.text).toContain(`<h3>Handbook</h3><p><code>${siteId}</code> · handbook.acme.test · Asia/Tokyo ·`);
    const handbook = { id: siteId, name: 'Handbook', domain: 'handbook.acme.test', timezone: 'Asia/Tokyo' };
    expect(await shown()).toEqual(handbook); // the dashboard's site list; the time zone posted alongside is not taken

    const noName = await edit({ csrf, name: '  ', domain: 'other.acme.test' });
    expect([noName.status, noName.text.includes('A site needs a name.')]).toEqual([422, true]);
    const badDomain = await edit({ csrf, name: 'Renamed', domain: 'https://handbook.acme.test/x' });
    expect([badDomain.status, badDomain.text.includes('A domain is a host name such as example.com (no scheme or path).')]).toEqual([422, true]);
    expect(badDomain.text).toContain(`<details open><summary>Edit Handbook</summary>`); // the form open again with what was entered
    expect(badDomain.text).toContain(`id="edit-domain-${siteId}" name="domain" maxlength="253" placeholder="example.com" value="https://handbook.acme.test/x"`);
    expect((await edit({ name: 'No token', domain: '' })).status).toBe(403);
    expect((await postForm(t, '/dashboard/account/sites/edit', { csrf, site_id: siteId, name: 'Cross', domain: '' }, { cookie: owner, origin: 'https://evil.example' })).status).toBe(403);
    expect(await shown()).toEqual(handbook);
    const theirs = await postForm(t, '/dashboard/account/sites/edit', { csrf, site_id: 'ST-globex', name: 'Taken', domain: '' }, { cookie: owner });
    expect([theirs.status, theirs.text.includes('There is no such site in this account.')]).toEqual([404, true]);
    expect((await t.backend.storage.getSite('ST-globex'))!.name).not.toBe('Taken');

    expect((await edit({ csrf, name: 'Handbook', domain: '' })).status).toBe(200); // an empty domain: none
    expect(await shown()).toEqual({ ...handbook, domain: null });
  });

  it('a viewer sees the dashboard and gets 403 on every owner page and action; a key session reaches no account page', async () => {
    const viewer = await userWithPassword(t, t.cloud!.accountA, 'viewer@acme.test', 'viewer', PASSWORD);
    expect((await page(t, '/dashboard/data/stats?site_id=ST-demo', viewer)).status).toBe(200);
    // Their own password and two-factor are theirs: the account link leads there, and the menu offers nothing else.
    expect((await page(t, '/dashboard/account/', viewer)).headers.location).toBe('password');
    const own = await page(t, '/dashboard/account/password', viewer);
    expect([...own.text.matchAll(/<li><a href="([a-z./]+)"/g)].map((m) => m[1])).toEqual(['../../', 'password']);
    const csrf = csrfIn(own.text);
    for (const section of ['keys', 'sites', 'goals', 'users']) {
      expect((await page(t, `/dashboard/account/${section}`, viewer)).status).toBe(403);
    }
    const actions: [string, Record<string, string>][] = [
      ['keys', { name: 'x' }], ['keys/revoke', { key_id: t.cloud!.keyAId }], ['sites', { name: 'X', timezone: 'UTC' }], ['sites/edit', { site_id: 'ST-demo', name: 'X', domain: '' }],
      ['goals', { site_id: 'ST-demo', type: 'event', value: 'X' }], ['goals/delete', { site_id: 'ST-demo', goal: 'X' }],
      ['users', { email: 'x@acme.test', role: 'owner' }], ['users/role', { user_id: 'usr_x', role: 'owner' }], ['users/remove', { user_id: 'usr_x' }],
    ];
    for (const [action, fields] of actions) {
      const reply = await postForm(t, `/dashboard/account/${action}`, { csrf, ...fields }, { cookie: viewer });
      expect([action, reply.status]).toEqual([action, 403]);
    }
    expect((await t.backend.accounts.listKeys(t.cloud!.accountA)).filter((k) => k.name === 'x')).toEqual([]);
    expect(await t.people.store.usersByEmail('x@acme.test')).toEqual([]);
    expect((await t.backend.storage.getSite('ST-demo'))!.name).not.toBe('X');
    const keySession = cookieOf(await postForm(t, '/dashboard/sign-in', { key: t.cloud!.keyB }));
    expect((await page(t, '/dashboard/account/sites', keySession)).status).toBe(403);
  });

  it('refuses a form from another origin, without Origin, without, with a stale or with a non-ASCII CSRF token (403), and changes nothing', async () => {
    const stale = csrfIn((await page(t, '/dashboard/account/keys', owner)).text);
    const fresh = await signInWithPassword(t, 'owner@acme.test', PASSWORD);
    const csrf = csrfIn((await page(t, '/dashboard/account/keys', fresh.cookie)).text);
    const attempts: { fields: Record<string, string>; origin?: string | null }[] = [
      { fields: { csrf, name: 'cross-site' }, origin: 'https://evil.example' },
      { fields: { csrf, name: 'no-origin' }, origin: null },
      { fields: { name: 'no-token' } },
      { fields: { csrf: stale, name: 'stale-token' } },
      { fields: { csrf: `é${csrf.slice(1)}`, name: 'wide-token' } }, // as many characters as the token, more bytes
    ];
    for (const { fields, origin } of attempts) {
      const reply = await postForm(t, '/dashboard/account/keys', fields, { cookie: fresh.cookie, ...(origin === undefined ? {} : { origin }) });
      expect([fields.name, reply.status]).toEqual([fields.name, 403]);
    }
    expect((await t.backend.accounts.listKeys(t.cloud!.accountA)).map((k) => k.name)).not.toContain('cross-site');
    expect((await postForm(t, '/dashboard/account/keys', { csrf, name: 'accepted' }, { cookie: fresh.cookie })).status).toBe(201);
  });

  it('users: invite (the link shown), change a role, remove (their sessions end); the account keeps an owner', async () => {
    const csrf = csrfIn((await page(t, '/dashboard/account/users', owner)).text);
    const invited = await postForm(t, '/dashboard/account/users', { csrf, email: 'Ann@Acme.test', role: 'viewer' }, { cookie: owner });
    expect(invited.status).toBe(201);
    const link = /id="invite-link" readonly value="https:\/\/127\.0\.0\.1:\d+\/dashboard\/set-password\?token=([A-Za-z0-9_-]{43})"/.exec(invited.text)![1]!;
    expect((await postForm(t, '/dashboard/set-password', { token: link, password: PASSWORD })).status).toBe(303);
    const [ann] = await t.people.store.usersByEmail('ann@acme.test');
    const annCookie = (await signInWithPassword(t, 'ann@acme.test', PASSWORD)).cookie;
    expect((await postForm(t, '/dashboard/account/users/role', { csrf, user_id: ann!.id, role: 'owner' }, { cookie: owner })).status).toBe(200);
    expect((await page(t, '/dashboard/account/users', annCookie)).status).toBe(200); // an owner now
    clock += 1;
    expect((await postForm(t, '/dashboard/account/users/remove', { csrf, user_id: ann!.id }, { cookie: owner })).status).toBe(200);
    expect((await page(t, '/dashboard/data/sites', annCookie)).status).toBe(401);
    const [me] = await t.people.store.usersByEmail('owner@acme.test');
    const self = await postForm(t, '/dashboard/account/users/remove', { csrf, user_id: me!.id }, { cookie: owner });
    expect(self.text).toContain('You cannot remove yourself; ask another owner.');
  });

  it('a password change signs the user out everywhere', async () => {
    await userWithPassword(t, t.cloud!.accountA, 'pat@acme.test', 'owner', PASSWORD);
    const [a, b] = [(await signInWithPassword(t, 'pat@acme.test', PASSWORD)).cookie, (await signInWithPassword(t, 'pat@acme.test', PASSWORD)).cookie];
    const csrf = csrfIn((await page(t, '/dashboard/account/password', a)).text);
    clock += 1;
    const changed = await postForm(t, '/dashboard/account/password', { csrf, current: PASSWORD, next: 'canyon-orbit-43-tulip' }, { cookie: a });
    expect([changed.status, changed.headers.location]).toEqual([303, '../../?notice=password-changed']);
    expect((await t.request('/?notice=password-changed')).text).toContain('Your password is changed and every session has ended, this one too. Sign in with the new password.');
    expect([(await page(t, '/dashboard/data/sites', a)).status, (await page(t, '/dashboard/data/sites', b)).status]).toEqual([401, 401]);
    expect((await signInWithPassword(t, 'pat@acme.test', PASSWORD)).reply.status).toBe(401);
    expect((await signInWithPassword(t, 'pat@acme.test', 'canyon-orbit-43-tulip')).reply.status).toBe(303);
  });

  it('two-factor (RFC 6238): turned on with a code, then asked at sign-in; a code and a recovery code each work once', async () => {
    const cookie = await userWithPassword(t, t.cloud!.accountA, 'tf@acme.test', 'viewer', PASSWORD);
    const csrf = csrfIn((await page(t, '/dashboard/account/password', cookie)).text);
    const start = await postForm(t, '/dashboard/account/password/totp-start', { csrf }, { cookie });
    const secret = /name="secret" value="([A-Z2-7]{32})"/.exec(start.text)![1]!;
    // The app's code at the dashboard's clock.
    const code = () => new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: clock });
    const wrong = await postForm(t, '/dashboard/account/password/totp-confirm', { csrf, secret, code: code() === '000000' ? '111111' : '000000', current: PASSWORD }, { cookie });
    expect(wrong.text).toContain('That code is not right');
    expect(wrong.text).toContain(`name="secret" value="${secret}"`); // the same secret, to try again
    const on = await postForm(t, '/dashboard/account/password/totp-confirm', { csrf, secret, code: code(), current: PASSWORD }, { cookie });
    const codes = /id="recovery-codes" readonly rows="10"[^>]*>([^<]*)<\/textarea>/.exec(on.text)![1]!.split('\n');
    expect(codes).toHaveLength(10);
    expect(codes[0]).toMatch(/^[0-9a-f]{5}-[0-9a-f]{5}-[0-9a-f]{5}-[0-9a-f]{5}$/);
    const without = await signInWithPassword(t, 'tf@acme.test', PASSWORD);
    expect([without.reply.status, without.reply.text.includes('The two-factor code is not right.')]).toEqual([401, true]);
    expect(on.text).toContain('The code you just entered is used up: to sign in, wait for the next one your app shows.');
    // The code that turned two-factor on, in the same 30 s: refused (RFC 6238 section 5.2, one use per code), saying why.
    const spent = await signInWithPassword(t, 'tf@acme.test', PASSWORD, { totp: code() });
    expect([spent.reply.status, spent.reply.text.includes('That two-factor code was already used: each code works once, and the one that turned two-factor on counts. Enter the next code your app shows (it changes every 30 seconds).')]).toEqual([401, true]);
    clock += 30_000; // the next time step: a new code
    expect((await signInWithPassword(t, 'tf@acme.test', PASSWORD, { totp: code() })).reply.status).toBe(303);
    const replayed = await signInWithPassword(t, 'tf@acme.test', PASSWORD, { totp: code() }); // the same code again, within its window
    expect([replayed.reply.status, replayed.cookie, replayed.reply.text.includes('That two-factor code was already used')]).toEqual([401, '', true]);
    clock += 30_000;
    expect((await signInWithPassword(t, 'tf@acme.test', PASSWORD, { totp: code() })).reply.status).toBe(303);
    expect((await signInWithPassword(t, 'tf@acme.test', PASSWORD, { totp: codes[3]! })).reply.status).toBe(303);
    expect((await signInWithPassword(t, 'tf@acme.test', PASSWORD, { totp: codes[3]! })).reply.status).toBe(401);
  });

  it('a wrong-password flood: 5 refusals (401), then 429 with Retry-After 1, 2, 4 … s, no password checked meanwhile; the right one after the wait', async () => {
    await userWithPassword(t, t.cloud!.accountA, 'flood@acme.test', 'viewer', PASSWORD);
    const statuses: number[] = [];
    const retryAfter: string[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await signInWithPassword(t, 'flood@acme.test', `wrong-guess-${i}`)).reply.status);
    for (let i = 0; i < 4; i++) {
      const held = await signInWithPassword(t, 'flood@acme.test', PASSWORD); // even the right password waits
      statuses.push(held.reply.status);
      retryAfter.push(String(held.reply.headers['retry-after']));
      clock += Number(held.reply.headers['retry-after']) * 1000;
      statuses.push((await signInWithPassword(t, 'flood@acme.test', `wrong-again-${i}`)).reply.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 401, 429, 401, 429, 401, 429, 401]);
    expect(retryAfter).toEqual(['1', '2', '4', '8']);
    clock += 16_000;
    expect((await signInWithPassword(t, 'flood@acme.test', PASSWORD)).reply.status).toBe(303);
    expect((await signInWithPassword(t, 'owner@acme.test', PASSWORD)).reply.status).toBe(303); // another user is not held
  });
});

describe('account pages, Community edition', () => {
  let t: TestDashboard;
  beforeAll(async () => {
    t = await startDashboard();
  });
  afterAll(() => t?.close());

  it('the installation\'s owner: the same pages minus keys (404), sites of the installation, edited', async () => {
    const owner = await userWithPassword(t, '', 'admin@example.com', 'owner', PASSWORD);
    const sites = await page(t, '/dashboard/account/sites', owner);
    expect(sites.status).toBe(200);
    expect(sites.text).not.toContain('href="keys"');
    expect(sites.text).toContain('<code>ST-demo</code>');
    expect((await page(t, '/dashboard/account/keys', owner)).status).toBe(404);
    const csrf = csrfIn(sites.text);
    expect((await postForm(t, '/dashboard/account/keys', { csrf, name: 'x' }, { cookie: owner })).status).toBe(404);
    const goal = await postForm(t, '/dashboard/account/goals', { csrf, site_id: 'ST-demo', type: 'event', value: 'Signup' }, { cookie: owner });
    expect(goal.status).toBe(201);
    const goals = JSON.parse((await api(t, '/goals?site_id=ST-demo&period=7d', t.key)).text) as { goals: { goal: string }[] };
    expect(goals.goals.map((g) => g.goal)).toContain('Signup');
    expect(JSON.parse((await page(t, '/dashboard/data/sites', owner)).text).sites.map((s: { id: string }) => s.id)).toEqual(['ST-demo']);
    const edited = await postForm(t, '/dashboard/account/sites/edit', { csrf, site_id: 'ST-demo', name: 'Our demo', domain: 'demo.example.com' }, { cookie: owner });
    expect([edited.status, edited.text.includes('Site Our demo (ST-demo) saved.')]).toEqual([200, true]);
    expect(JSON.parse((await page(t, '/dashboard/data/sites', owner)).text).sites).toEqual([{ id: 'ST-demo', name: 'Our demo', domain: 'demo.example.com', timezone: 'Europe/Berlin' }]);
  });
});
