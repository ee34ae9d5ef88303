import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Backend } from '../backend.js';
import { People } from '../people/people.js';
import { ATTEMPTS_KEPT_MS, LINK_TTL_MS, SESSION_LIMITS } from '../people/rules.js';
import { SignInThrottle } from '../people/throttle.js';
import { peopleRaceCases } from './people-races.js';

/** Counts a people table's rows whose `column` is `value` in a backend's storage. */
export type CountRows = (table: 'web_sessions' | 'user_links' | 'user_link_uses' | 'totp_steps' | 'sign_ins', column: string, value: string) => Promise<number>;

export interface PeopleCasesOptions {
  countRows: CountRows;
  /**
   * Whether the store decides each change in a transaction, so that of racing uses of one
   * recovery code (or adds of one email) exactly one wins; without (ClickHouse), at most one
   * wins and all may be refused (`PeopleStore`).
   */
  transactions: boolean;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Users, one-time links and web sessions through two instances opened on the same data (two
 * server processes): what one writes or ends, the other sees at once; then the same under
 * concurrency (`peopleRaceCases`). Part of `testBackend`.
 */
export function peopleCases(instances: () => [Backend, Backend], { countRows, transactions }: PeopleCasesOptions): void {
  let t = Date.parse('2026-11-24T10:00:00Z');
  const people = () => instances().map((b) => new People(b.people, { now: () => t })) as [People, People];
  const owner = `owner-${Date.now()}@acme.test`;

  it('a one-time link sets the password once, within 24 hours; a refused password does not spend it', async () => {
    const [a, b] = people();
    const { user, link } = await a.addUser('acct_people0000000001', `  ${owner.toUpperCase()} `, 'owner');
    expect(user).toMatchObject({ email: owner, role: 'owner', password_hash: '', removed: false });
    await expect(b.addUser('acct_people0000000001', owner, 'viewer')).rejects.toThrow(`There is already a user ${owner} in this account.`);
    await expect(b.setPasswordWithLink(link, 'short')).rejects.toThrow('A password needs at least 10 characters.');
    await expect(b.setPasswordWithLink(link, 'Password123')).rejects.toThrow('This password is among the most common ones; choose another.');
    const set = await b.setPasswordWithLink(link, 'tulip-orbit-42-canyon');
    expect(set.password_hash).toMatch(/^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    await expect(a.setPasswordWithLink(link, 'another-good-pass-9')).rejects.toThrow('This link is not valid');
    expect((await a.usersWithPassword(owner, 'tulip-orbit-42-canyon')).map((u) => u.id)).toEqual([user.id]);
    expect(await a.usersWithPassword(owner, 'tulip-orbit-42-canyoN')).toEqual([]);
    expect(await a.usersWithPassword('nobody@acme.test', 'tulip-orbit-42-canyon')).toEqual([]);
    expect(await a.usersWithPassword('not an email', 'tulip-orbit-42-canyon')).toEqual([]);

    const late = await a.newLink(user.id);
    t += LINK_TTL_MS;
    await expect(b.setPasswordWithLink(late, 'another-good-pass-9')).rejects.toThrow('This link is not valid');
  });

  it('of concurrent uses of one link through both instances at most one succeeds, and none after', async () => {
    const [a, b] = people();
    const { link } = await a.addUser('acct_people0000000001', `race-${Date.now()}@acme.test`, 'viewer');
    const tries = [a, b, a, b, a, b].map((p, i) => p.setPasswordWithLink(link, `race-password-${i}-xyz`).then(() => 'ok', () => 'refused'));
    const outcomes = await Promise.all(tries);
    expect(outcomes.filter((o) => o === 'ok').length).toBeLessThanOrEqual(1);
    expect(outcomes.length).toBe(6);
    await expect(a.setPasswordWithLink(link, 'race-password-late-xyz')).rejects.toThrow('This link is not valid');
  });

  it('a session started on one instance is served by the other, until idle, too old, signed out or the password changes', async () => {
    const [a, b] = people();
    const [user] = await a.usersWithPassword(owner, 'tulip-orbit-42-canyon');
    const { id, session } = await a.startSession({ user: user! });
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await b.session(id))?.user?.email).toBe(owner);
    expect((await b.session(id))?.session.csrf).toBe(session.csrf);
    expect(await b.session(`${id.slice(0, -1)}${id.endsWith('A') ? 'E' : 'A'}`)).toBeUndefined(); // one character off (an id ends in A one time in 16)

    t += SESSION_LIMITS.idleMs - 1_000; // used just before going idle: written, so it lives on
    expect(await a.session(id)).toBeDefined();
    t += SESSION_LIMITS.idleMs - 1_000;
    expect(await b.session(id)).toBeDefined();
    t += SESSION_LIMITS.idleMs;
    expect(await b.session(id)).toBeUndefined();

    const second = await a.startSession({ user: user! });
    await b.endSession(second.id);
    expect(await a.session(second.id)).toBeUndefined();

    const old = await a.startSession({ user: user! });
    for (let i = 0; i < 60; i++) {
      t += SESSION_LIMITS.idleMs / 2;
      if (!(await b.session(old.id))) break;
    }
    expect(t - old.session.created_ms).toBe(SESSION_LIMITS.maxAgeMs); // ended by absolute expiry, used every 15 minutes

    const [x, y] = [await a.startSession({ user: user! }), await b.startSession({ user: user! })];
    await b.changePassword(user!, 'tulip-orbit-42-canyon', 'new-orbit-tulip-43'); // in the same millisecond: the epoch, not the clock, ends them
    expect([await a.session(x.id), await b.session(y.id)]).toEqual([undefined, undefined]);
    const late = await a.startSession({ user: user! }); // a sign-in that read the user before the change
    expect(await b.session(late.id)).toBeUndefined();
    const [fresh] = await a.usersWithPassword(owner, 'new-orbit-tulip-43');
    const after = await a.startSession({ user: fresh! });
    expect((await b.session(after.id))?.user?.id).toBe(user!.id);
  });

  it('keeps at least one owner; a removed user is signed out everywhere', async () => {
    const [a, b] = people();
    const account = `acct_people${String(Date.now()).slice(-9)}`;
    const first = await a.addUser(account, `first-${Date.now()}@acme.test`, 'owner');
    await expect(b.setRole(account, first.user.id, 'viewer')).rejects.toThrow('An account keeps at least one owner');
    await expect(b.removeUser(account, first.user.id)).rejects.toThrow('An account keeps at least one owner');
    const second = await a.addUser(account, `second-${Date.now()}@acme.test`, 'viewer');
    await b.setRole(account, second.user.id, 'owner');
    expect((await a.userOf(account, second.user.id)).role).toBe('owner');
    const session = await a.startSession({ user: (await a.userOf(account, second.user.id)) });
    await b.removeUser(account, second.user.id);
    expect(await a.session(session.id)).toBeUndefined();
    expect((await a.usersOf(account)).map((u) => u.id)).toEqual([first.user.id]);
    await expect(a.setRole('acct_other', first.user.id, 'viewer')).rejects.toThrow('There is no such user in this account.');
  });

  it('a key session ends on sign-out, through either instance', async () => {
    const [a, b] = people();
    const { id } = await a.startSession({ keyId: 'community', accountId: '' });
    expect((await b.session(id))?.session).toMatchObject({ key_id: 'community', user_id: '', ended: false });
    await a.endSession(id);
    expect(await b.session(id)).toBeUndefined();
  });

  it('a two-factor time step is accepted once, through either instance; an earlier step after a later one is refused', async () => {
    const [a, b] = people();
    const userId = `usr_totp${String(Date.now()).slice(-12)}`;
    const step = Math.floor(t / 30_000);
    expect(await a.store.useTotpStep(userId, step)).toBe(true);
    expect(await b.store.useTotpStep(userId, step)).toBe(false); // the same code replayed through the other process
    expect(await a.store.useTotpStep(userId, step - 1)).toBe(false); // the previous code, still in its window
    expect(await b.store.useTotpStep(userId, step + 1)).toBe(true); // the next code
    expect(await b.store.useTotpStep(`${userId}x`, step)).toBe(true); // another user's
  });

  it('failed sign-ins through one instance count on the other (the throttle lives in the backend)', async () => {
    const [a, b] = instances().map((i) => new SignInThrottle(i.people));
    const email = `throttled-${Date.now()}@acme.test`;
    for (let i = 0; i < 3; i++) expect((await a!.reserve(email, '203.0.113.9', t)).waitMs).toBe(0); // each left a failure
    for (let i = 0; i < 2; i++) expect((await b!.reserve(email, '203.0.113.9', t)).waitMs).toBe(0);
    expect((await a!.reserve(email, '203.0.113.9', t + 250)).waitMs).toBe(750);
    expect((await b!.reserve(email, '203.0.113.9', t + 250)).waitMs).toBe(750); // a refused attempt is not counted
    const other = await b!.reserve(email, '198.51.100.7', t + 250); // another client: its own five
    expect(other.waitMs).toBe(0);
    await a!.succeeded(other.attempt!, t + 300);
    const { attempt } = await a!.reserve(email, '203.0.113.9', t + 1_000);
    expect(attempt).toBeDefined();
    await b!.succeeded(attempt!, t + 1_000);
    expect((await a!.reserve(email, '203.0.113.9', t + 1_000)).waitMs).toBe(0); // the success cleared the pair
  });

  it('removeExpired deletes ended, idle and too old sessions, used and expired links and old attempts; live ones stay', async () => {
    const [a, b] = people();
    t += 3 * LINK_TTL_MS; // past everything the cases above made
    const { user, link: used } = await a.addUser('acct_people0000000001', `cleanup-${Date.now()}@acme.test`, 'viewer');
    const subject = { user: await b.setPasswordWithLink(used, 'cleanup-password-42') };
    const expiring = await a.newLink(user.id);
    t += LINK_TTL_MS - SESSION_LIMITS.maxAgeMs;
    const old = await a.startSession(subject);
    const attemptKey = sha256(`cleanup-attempt-${Date.now()}`);
    const attemptAt = (at: number) => ({ id: sha256(`${attemptKey}${at}`).slice(0, 24), at_ms: at, keys: [{ key: attemptKey, read: 1 }] });
    await a.store.reserveSignIn(attemptAt(t), () => 0);
    let idle!: Awaited<ReturnType<People['startSession']>>;
    let ended!: Awaited<ReturnType<People['startSession']>>;
    for (let i = 1; i <= 47; i++) {
      t += SESSION_LIMITS.maxAgeMs / 48; // the old session used every 15 minutes
      expect(await b.session(old.id)).toBeDefined();
      if (i === 24) [idle, ended] = [await a.startSession(subject), await a.startSession(subject)];
    }
    await b.endSession(ended.id);
    t += 14 * 60_000;
    expect(await a.session(old.id)).toBeDefined(); // last used 11 h 59 min after it began
    t += 2 * 60_000; // now 12 h 1 min: past its absolute expiry, not idle; the idle one unused for 6 h; the first links 24 h 1 min old
    const live = await b.startSession(subject);
    const keptLink = await a.newLink(user.id);
    await b.store.reserveSignIn(attemptAt(t - ATTEMPTS_KEPT_MS + 1_000), () => 0);
    const count = (table: Parameters<CountRows>[0], column: string, value: string) => countRows(table, column, value);
    const sessionRows = async () => ({
      old: await count('web_sessions', 'id_hash', old.session.id_hash),
      idle: await count('web_sessions', 'id_hash', idle.session.id_hash),
      ended: await count('web_sessions', 'id_hash', ended.session.id_hash),
      live: await count('web_sessions', 'id_hash', live.session.id_hash),
    });
    const linkRows = async () => [await count('user_links', 'token_hash', sha256(used)), await count('user_links', 'token_hash', sha256(expiring)), await count('user_links', 'token_hash', sha256(keptLink))];
    expect(Object.values(await sessionRows()).every((n) => n > 0)).toBe(true);
    expect(await linkRows()).toEqual([1, 1, 1]);
    expect(await count('sign_ins', 'key', attemptKey)).toBe(2);

    await a.removeExpired();
    expect({ ...(await sessionRows()), live: 'kept' }).toEqual({ old: 0, idle: 0, ended: 0, live: 'kept' });
    expect(await count('web_sessions', 'id_hash', live.session.id_hash)).toBeGreaterThan(0);
    expect(await linkRows()).toEqual([0, 0, 1]); // used, expired: gone; the new one kept
    expect(await count('sign_ins', 'key', attemptKey)).toBe(1); // the attempt within the last hour stays
    expect((await b.session(live.id))?.user?.id).toBe(user.id);
    expect((await b.setPasswordWithLink(keptLink, 'cleanup-password-43')).id).toBe(user.id); // still works, once
  });

  peopleRaceCases(instances, { transactions });
}
