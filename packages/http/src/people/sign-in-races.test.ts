/**
 * Sign-in under concurrency, over real HTTPS on loopback and a real SQLite file: requests
 * fired at once (`Promise.all`), from several client addresses (each request bound to its
 * own loopback address, 127.0.0.2 …, so the server sees real distinct peers; IPv6 clients
 * through `X-Forwarded-For` behind a trusted proxy). Password hashes are counted through
 * `People.hashChecks`, not guessed from timings. The same races through two server
 * processes, on SQLite and ClickHouse, are in test/deployment/accounts.test.ts.
 */
import { verifyPassword } from '@siteline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Reply, startDashboard, type TestDashboard } from '../dashboard/test-helpers.js';
import { cookieOf, csrfIn, postForm, tokenOf } from './people-test-helpers.js';
import { turnOnTwoFactor } from './two-factor-test-helpers.js';

const PASSWORD = 'tulip-orbit-42-canyon';
const NEXT = 'canyon-orbit-43-tulip';
/** A loopback address of its own for client `n` (1 … 250). */
const from = (n: number) => `127.0.0.${n + 1}`;
const statusesOf = (replies: { status: number }[]) => replies.map((r) => r.status).sort();
const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;
/** Rounds of each race: every gap of `race` once in each order. */
const ROUNDS = 20;

/**
 * Round `round` of a race: odd rounds send `second` first; the later of the two leaves 0 to
 * 135 ms after the earlier (a scrypt is ~50-150 ms here), so across the rounds one request's
 * read, hash and write fall before, across and after the other's.
 */
async function race(round: number, first: () => Promise<Reply>, second: () => Promise<Reply>): Promise<[Reply, Reply]> {
  const gap = (Math.floor(round / 2) % 10) * 15;
  const later = (send: () => Promise<Reply>) => new Promise<Reply>((resolve, reject) => setTimeout(() => send().then(resolve, reject), gap));
  if (round % 2 === 0) return Promise.all([first(), later(second)]);
  const [b, a] = await Promise.all([second(), later(first)]);
  return [a, b];
}

let t: TestDashboard;
let users = 0;
/** The dashboard's clock: the real one, or held still (a burst then sees no throttle wait run out while it lasts). */
let frozen: number | undefined;
beforeAll(async () => {
  t = await startDashboard({ cloud: true, dashboard: { now: () => frozen ?? Date.now() } });
});
afterAll(() => t?.close());

/** A user of account A with a password set through their link; returns the email and a signed-in cookie (from 127.0.0.250). */
async function newUser(role: 'owner' | 'viewer' = 'viewer'): Promise<{ email: string; cookie: string; id: string }> {
  const email = `user-${++users}@acme.test`;
  const { user, link } = await t.people.addUser(t.cloud!.accountA, email, role);
  const set = await postForm(t, '/dashboard/set-password', { token: tokenOf(`?token=${link}`), password: PASSWORD });
  if (set.status !== 303) throw new Error(`set-password answered ${set.status}`);
  const signedIn = await postForm(t, '/dashboard/sign-in', { email, password: PASSWORD, view: '' }, { from: from(249) });
  if (signedIn.status !== 303) throw new Error(`sign-in answered ${signedIn.status}`);
  return { email, cookie: cookieOf(signedIn), id: user.id };
}

const signInFrom = (client: number, email: string, password: string, totp?: string) =>
  postForm(t, '/dashboard/sign-in', { email, password, view: '', ...(totp === undefined ? {} : { totp }) }, { from: from(client) });
const stillSignedIn = async (cookie: string) => cookie !== '' && (await t.request('/dashboard/data/sites', { headers: { Cookie: cookie } })).status === 200;

describe('the throttle counts concurrent attempts before their hash', () => {
  it('10 wrong passwords at once from one address: 5 × 401 and 5 × 429, five hashes', async () => {
    const { email } = await newUser();
    const before = t.people.hashChecks;
    frozen = Date.now();
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => signInFrom(1, email, `wrong-guess-${i}`)));
    frozen = undefined;
    expect(statusesOf(replies)).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
    expect(t.people.hashChecks - before).toBe(5);
  });

  it('120 at once for one email from 12 addresses, the right password among them: at most 50 failed hashes and one right one, the rest held before hashing', async () => {
    const { email } = await newUser();
    const before = t.people.hashChecks;
    const attempts = Array.from({ length: 120 }, (_, i) => ({ client: 10 + (i % 12), password: i === 119 ? PASSWORD : `wrong-guess-${i}` }));
    frozen = Date.now();
    const replies = await Promise.all(attempts.map((a) => signInFrom(a.client, email, a.password)));
    const statuses = replies.map((r) => r.status);
    // 5 failures per email and client, 50 per email (docs/behaviour.md "Throttle"); a success is not a failure.
    expect(count(statuses, 401)).toBeLessThanOrEqual(50);
    expect(count(statuses, 303)).toBeLessThanOrEqual(1);
    expect(t.people.hashChecks - before).toBe(count(statuses, 401) + count(statuses, 303)); // one hash for each attempt not held
    expect(statuses.every((s) => [303, 401, 429].includes(s))).toBe(true);
    for (let client = 10; client < 22; client++) {
      const own = attempts.flatMap((a, i) => (a.client === client ? [statuses[i]!] : []));
      if (!own.includes(303)) expect(own.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    }
    if (!statuses.includes(303)) {
      // 50 failures of the email: the right password from a 13th address still waits.
      expect(count(statuses, 401)).toBe(50);
      const late = await signInFrom(30, email, PASSWORD);
      expect([late.status, late.headers['retry-after']]).toEqual([429, '1']);
    }
    frozen = undefined;
  });
});

describe('recovery codes and changes to a user under concurrency', () => {
  it('one recovery code used by 10 sign-ins at once (10 addresses) signs in once; then it is spent', async () => {
    const { email, cookie } = await newUser();
    const { codes } = await turnOnTwoFactor(t, cookie, PASSWORD, Date.now);
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => signInFrom(40 + i, email, PASSWORD, codes[0])));
    expect(statusesOf(replies)).toEqual([303, 401, 401, 401, 401, 401, 401, 401, 401, 401]);
    expect((await signInFrom(50, email, PASSWORD, codes[0])).status).toBe(401);
  });

  it('two recovery codes used at once are both spent (neither comes back)', async () => {
    const { email, cookie } = await newUser();
    const { codes } = await turnOnTwoFactor(t, cookie, PASSWORD, Date.now);
    const both = await Promise.all([signInFrom(60, email, PASSWORD, codes[1]), signInFrom(61, email, PASSWORD, codes[2])]);
    expect(statusesOf(both)).toEqual([303, 303]);
    const again = await Promise.all([signInFrom(62, email, PASSWORD, codes[1]), signInFrom(63, email, PASSWORD, codes[2])]);
    expect(statusesOf(again)).toEqual([401, 401]);
    expect((await signInFrom(64, email, PASSWORD, codes[3])).status).toBe(303);
  });

  it(`a password change racing a recovery-code sign-in with the old password, ${ROUNDS} times in both orders, 0-135 ms apart: the new password holds, the old one and its session do not`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { email, cookie, id } = await newUser();
      const { codes } = await turnOnTwoFactor(t, cookie, PASSWORD, Date.now);
      const csrf = csrfIn((await t.request('/dashboard/account/password', { headers: { Cookie: cookie } })).text);
      const change = () => postForm(t, '/dashboard/account/password', { csrf, current: PASSWORD, next: NEXT }, { cookie, from: from(249) });
      const attack = () => signInFrom(70 + (round % 100), email, PASSWORD, codes[0]);
      const [changed, attacked] = await race(round, change, attack);
      expect([round, changed.status]).toEqual([round, 303]);
      expect([round, [303, 401].includes(attacked.status)]).toEqual([round, true]);
      const user = (await t.backend.people.userById(id))!;
      expect([round, await verifyPassword(NEXT, user.password_hash), await verifyPassword(PASSWORD, user.password_hash)]).toEqual([round, true, false]);
      expect([round, await stillSignedIn(cookieOf(attacked))]).toEqual([round, false]);
    }
  }, 180_000);

  it(`removing a user racing their recovery-code sign-in, ${ROUNDS} times in both orders, 0-135 ms apart: removed, unlisted, signed out`, async () => {
    const owner = await newUser('owner');
    const csrf = csrfIn((await t.request('/dashboard/account/users', { headers: { Cookie: owner.cookie } })).text);
    for (let round = 0; round < ROUNDS; round++) {
      const { email, cookie, id } = await newUser();
      const { codes } = await turnOnTwoFactor(t, cookie, PASSWORD, Date.now);
      const remove = () => postForm(t, '/dashboard/account/users/remove', { csrf, user_id: id }, { cookie: owner.cookie, from: from(248) });
      const attack = () => signInFrom(170 + (round % 70), email, PASSWORD, codes[0]);
      const [removed, attacked] = await race(round, remove, attack);
      expect([round, removed.status]).toEqual([round, 200]);
      expect([round, (await t.backend.people.userById(id))?.removed]).toEqual([round, true]);
      expect([round, (await t.people.usersOf(t.cloud!.accountA)).some((u) => u.id === id)]).toEqual([round, false]);
      expect([round, await stillSignedIn(cookieOf(attacked)), await stillSignedIn(cookie)]).toEqual([round, false, false]);
    }
  }, 180_000);
});

describe('sign-in limits count an IPv6 client by its /64, as the API does', () => {
  let proxied: TestDashboard;
  beforeAll(async () => {
    // A clock that stands still: no throttle wait or rate-limit window runs out between the sequential attempts, however slow the machine.
    const now = Date.now();
    proxied = await startDashboard({ cloud: true, dashboard: { now: () => now, trustProxy: true, signInRateLimit: { limit: 10, windowMs: 60_000 } } });
  });
  afterAll(() => proxied?.close());
  const proxy = (client: string) => ({ headers: { 'X-Forwarded-For': client, 'X-Forwarded-Proto': 'https' } });
  const viaProxy = (client: string, email: string, password: string) => postForm(proxied, '/dashboard/sign-in', { email, password, view: '' }, proxy(client));

  it('12 wrong guesses for one email from 2001:db8:1:2::1 … ::c: 5 × 401, then 429', async () => {
    const { link } = await proxied.people.addUser(proxied.cloud!.accountA, 'six@acme.test', 'viewer');
    expect((await postForm(proxied, '/dashboard/set-password', { token: link, password: PASSWORD }, proxy('192.0.2.1'))).status).toBe(303);
    const statuses: number[] = [];
    for (let i = 1; i <= 12; i++) statuses.push((await viaProxy(`2001:db8:1:2::${i.toString(16)}`, 'six@acme.test', `wrong-guess-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
  });

  it('60 sign-ins for 60 emails from one /64: 10 × 401, then 50 × 429 (10 a minute per network), as from one IPv4 address', async () => {
    for (const [prefix, client] of [['v6', (i: number) => `2001:db8:7:7:${i.toString(16)}::1`], ['v4', () => '198.51.100.7']] as const) {
      const before = proxied.people.hashChecks;
      const statuses: number[] = [];
      for (let i = 0; i < 60; i++) statuses.push((await viaProxy(client(i), `${prefix}-${i}@acme.test`, 'wrong-guess-0')).status);
      expect([prefix, statuses]).toEqual([prefix, [...Array(10).fill(401), ...Array(50).fill(429)]]);
      expect(proxied.people.hashChecks - before).toBe(10);
    }
  }, 120_000);
});
