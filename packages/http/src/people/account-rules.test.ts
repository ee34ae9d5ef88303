/**
 * Rules of users and accounts that an owner or an operator can get wrong, over real HTTPS on
 * a real SQLite file (Cloud, two accounts): older set-password links end when a password is
 * set; an email may belong to users of several accounts (an invitation tells nothing about
 * other accounts, sign-in asks which account when one email and password fit several); a
 * user without an account reads nothing in the Cloud edition; two-factor is replaced or
 * turned on only with the current password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashboard, type TestDashboard } from '../dashboard/test-helpers.js';
import { cookieOf, csrfIn, postForm, signInWithPassword, userWithPassword } from './people-test-helpers.js';
import { totpCode, turnOnTwoFactor } from './two-factor-test-helpers.js';

const PASSWORD = 'tulip-orbit-42-canyon';
const OTHER = 'canyon-orbit-43-tulip';
const page = (t: TestDashboard, path: string, cookie: string) => t.request(path, { headers: { Cookie: cookie } });
const sitesOf = async (t: TestDashboard, cookie: string) => {
  const reply = await page(t, '/dashboard/data/sites', cookie);
  return reply.status === 200 ? (JSON.parse(reply.text) as { sites: { id: string }[] }).sites.map((s) => s.id) : reply.status;
};

let t: TestDashboard;
beforeAll(async () => {
  t = await startDashboard({ cloud: true, dashboard: { now: Date.now } });
});
afterAll(() => t?.close());

describe('set-password links', () => {
  it('setting a password through one link ends the user\'s other links', async () => {
    const { user, link: first } = await t.people.addUser(t.cloud!.accountA, 'links@acme.test', 'viewer');
    const second = await t.people.newLink(user.id);
    const third = await t.people.newLink(user.id);
    expect((await postForm(t, '/dashboard/set-password', { token: second, password: PASSWORD })).status).toBe(303);
    for (const older of [first, third]) {
      const reply = await postForm(t, '/dashboard/set-password', { token: older, password: OTHER });
      expect([reply.status, reply.text.includes('This link is not valid')]).toEqual([400, true]);
    }
    expect((await signInWithPassword(t, 'links@acme.test', PASSWORD)).reply.status).toBe(303);
  });

  it('a password change ends the links made before it', async () => {
    const { user, link } = await t.people.addUser(t.cloud!.accountA, 'changed@acme.test', 'viewer');
    const spare = await t.people.newLink(user.id);
    expect((await postForm(t, '/dashboard/set-password', { token: link, password: PASSWORD })).status).toBe(303);
    const cookie = (await signInWithPassword(t, 'changed@acme.test', PASSWORD)).cookie;
    const after = await t.people.newLink(user.id); // made after the first password: ended by the change below
    const csrf = csrfIn((await page(t, '/dashboard/account/password', cookie)).text);
    expect((await postForm(t, '/dashboard/account/password', { csrf, current: PASSWORD, next: OTHER }, { cookie })).status).toBe(303);
    for (const older of [spare, after]) expect((await postForm(t, '/dashboard/set-password', { token: older, password: 'third-password-44' })).status).toBe(400);
  });
});

describe('Cloud: one email in several accounts', () => {
  let ownerA: string;
  beforeAll(async () => {
    ownerA = await userWithPassword(t, t.cloud!.accountA, 'owner@acme.test', 'owner', PASSWORD);
    await userWithPassword(t, t.cloud!.accountB, 'ownerb@globex.test', 'owner', OTHER);
  });

  it('an owner invites an email that another account uses: accepted, and the answer says nothing of the other account', async () => {
    const csrf = csrfIn((await page(t, '/dashboard/account/users', ownerA)).text);
    const invited = await postForm(t, '/dashboard/account/users', { csrf, email: 'OwnerB@Globex.test', role: 'viewer' }, { cookie: ownerA });
    expect(invited.status).toBe(201);
    expect(invited.text).toContain('ownerb@globex.test was invited as viewer.');
    expect(invited.text).not.toMatch(/already|Globex/);
    const again = await postForm(t, '/dashboard/account/users', { csrf, email: 'ownerb@globex.test', role: 'viewer' }, { cookie: ownerA });
    expect([again.status, again.text.includes('There is already a user ownerb@globex.test in this account.')]).toEqual([422, true]);
    expect((await t.people.usersOf(t.cloud!.accountB)).map((u) => [u.email, u.role])).toEqual([['ownerb@globex.test', 'owner']]);
    expect((await t.people.usersOf(t.cloud!.accountA)).map((u) => u.email)).toContain('ownerb@globex.test');
  });

  it('sign-in goes to the account whose user has that password; the other account\'s password never opens this one', async () => {
    const link = /id="invite-link" readonly value="[^"]*token=([A-Za-z0-9_-]{43})"/;
    const csrf = csrfIn((await page(t, '/dashboard/account/users', ownerA)).text);
    const invited = await postForm(t, '/dashboard/account/users', { csrf, email: 'shared@acme.test', role: 'viewer' }, { cookie: ownerA });
    expect((await postForm(t, '/dashboard/set-password', { token: link.exec(invited.text)![1]!, password: 'acme-side-pass-12' })).status).toBe(303);
    const { link: globexLink } = await t.people.addUser(t.cloud!.accountB, 'shared@acme.test', 'viewer');
    expect((await postForm(t, '/dashboard/set-password', { token: globexLink, password: 'globex-side-pass-12' })).status).toBe(303);
    const before = t.people.hashChecks;
    expect(await sitesOf(t, (await signInWithPassword(t, 'shared@acme.test', 'globex-side-pass-12')).cookie)).toEqual(['ST-globex']);
    expect(await sitesOf(t, (await signInWithPassword(t, 'shared@acme.test', 'acme-side-pass-12')).cookie)).toEqual(['ST-demo']);
    expect(await signInWithPassword(t, 'shared@acme.test', 'neither-side-pass-12')).toMatchObject({ cookie: '', reply: { status: 401 } });
    // One scrypt per sign-in, as for an email with one user: the two users share a salt, so the time tells nothing about the other account.
    expect(t.people.hashChecks - before).toBe(3);
  });

  it('when one email and password fit users of two accounts, sign-in asks which account (no session until chosen)', async () => {
    await userWithPassword(t, t.cloud!.accountA, 'both@acme.test', 'viewer', PASSWORD);
    const { link } = await t.people.addUser(t.cloud!.accountB, 'both@acme.test', 'viewer');
    expect((await postForm(t, '/dashboard/set-password', { token: link, password: PASSWORD })).status).toBe(303);
    const asked = await signInWithPassword(t, 'both@acme.test', PASSWORD);
    expect([asked.reply.status, asked.cookie]).toEqual([200, '']);
    expect(asked.reply.text).toContain('This email has a user in more than one account. Choose the account, and enter the password again.');
    expect([...asked.reply.text.matchAll(/<input type="radio" name="account" value="(acct_[a-z0-9]{16})"[^>]*> ([A-Za-z]+)</g)].map((m) => [m[1], m[2]]).sort())
      .toEqual([[t.cloud!.accountA, 'Acme'], [t.cloud!.accountB, 'Globex']].sort());
    expect(asked.reply.text).not.toContain(PASSWORD);
    const chosen = await signInWithPassword(t, 'both@acme.test', PASSWORD, { account: t.cloud!.accountB });
    expect(chosen.reply.status).toBe(303);
    expect(await sitesOf(t, chosen.cookie)).toEqual(['ST-globex']);
  });
});

describe('Cloud: a user without an account', () => {
  it('cannot sign in, and a session of theirs reads nothing (the dashboard data and the export of every account are refused)', async () => {
    const { user, link } = await t.people.addUser('', 'ops@example.test', 'owner');
    expect((await postForm(t, '/dashboard/set-password', { token: link, password: PASSWORD })).status).toBe(303);
    expect((await signInWithPassword(t, 'ops@example.test', PASSWORD)).reply.status).toBe(401);
    const { id } = await t.people.startSession({ user: (await t.backend.people.userById(user.id))! });
    const cookie = `__Host-siteline_session=${id}`;
    expect(await sitesOf(t, cookie)).toBe(401);
    expect((await page(t, '/dashboard/data/stats?site_id=ST-globex', cookie)).status).toBe(401);
    expect((await page(t, '/dashboard/data/export?site_id=ST-globex&date_from=2026-11-01&date_to=2026-11-20', cookie)).status).toBe(401);
  });
});

describe('two-factor changes ask for the current password', () => {
  it('turning it on, or replacing it, without the right current password changes nothing', async () => {
    const cookie = await userWithPassword(t, t.cloud!.accountA, 'tf@acme.test', 'viewer', PASSWORD);
    const csrf = csrfIn((await page(t, '/dashboard/account/password', cookie)).text);
    const start = await postForm(t, '/dashboard/account/password/totp-start', { csrf }, { cookie });
    expect(start.text).toMatch(/<input[^>]+name="current"[^>]+autocomplete="current-password"/);
    const secret = /name="secret" value="([A-Z2-7]{32})"/.exec(start.text)![1]!;
    for (const current of [undefined, 'not-the-password']) {
      const fields = { csrf, secret, code: totpCode(secret, Date.now()), ...(current === undefined ? {} : { current }) };
      const refused = await postForm(t, '/dashboard/account/password/totp-confirm', fields, { cookie });
      expect([refused.status, refused.text.includes('The current password is not right.')]).toEqual([422, true]);
    }
    expect((await t.people.usersOf(t.cloud!.accountA)).find((u) => u.email === 'tf@acme.test')!.totp_secret).toBe('');

    const { codes } = await turnOnTwoFactor(t, cookie, PASSWORD, Date.now);
    const again = await postForm(t, '/dashboard/account/password/totp-start', { csrf }, { cookie });
    const replacement = /name="secret" value="([A-Z2-7]{32})"/.exec(again.text)![1]!;
    const replaced = await postForm(t, '/dashboard/account/password/totp-confirm', { csrf, secret: replacement, code: totpCode(replacement, Date.now()) }, { cookie });
    expect(replaced.status).toBe(422);
    expect((await signInWithPassword(t, 'tf@acme.test', PASSWORD, { totp: codes[0]! })).reply.status).toBe(303); // the old codes still work
    expect(cookieOf(replaced)).toBe('');
  });
});
