import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Backend } from '../backend.js';
import { verifyPassword } from '../people/passwords.js';
import { People } from '../people/people.js';
import { SignInThrottle } from '../people/throttle.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const PASSWORD = 'tulip-orbit-42-canyon';
const NEXT = 'canyon-orbit-43-tulip';
let serial = 0;
const unique = (what: string) => `${what}-${Date.now()}-${++serial}`;

/**
 * People under concurrency through two instances on one backend (two server processes),
 * everything fired at once: changes to one user never undo each other, a recovery code or
 * an email is taken once, and the throttle counts every concurrent attempt before its hash.
 * `transactions`: whether exactly one of racing uses wins (else at most one; see `PeopleStore`).
 */
export function peopleRaceCases(instances: () => [Backend, Backend], { transactions }: { transactions: boolean }): void {
  const people = () => instances().map((b) => new People(b.people)) as [People, People];
  /** A user of a fresh account with a password and recovery codes `code-0` … `code-9`. */
  const userWithCodes = async (p: People, role: 'owner' | 'viewer' = 'viewer') => {
    const account = `acct_${unique('race').replace(/\W/g, '').slice(-16)}`;
    const { user, link } = await p.addUser(account, `${unique('race')}@acme.test`, role);
    await p.setPasswordWithLink(link, PASSWORD);
    await p.setTwoFactor(user, 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', Array.from({ length: 10 }, (_, i) => sha256(`code-${i}`)));
    return { account, user: (await p.store.userById(user.id))! };
  };

  it(`one recovery code used 10 times at once through both instances is spent by ${transactions ? 'exactly one' : 'at most one'} of them, and by none after`, async () => {
    const [a, b] = people();
    const { user } = await userWithCodes(a);
    const uses = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).store.useRecoveryCode(user.id, sha256('code-0'))));
    if (transactions) expect(uses.filter(Boolean).length).toBe(1);
    else expect(uses.filter(Boolean).length).toBeLessThanOrEqual(1);
    expect(await b.store.useRecoveryCode(user.id, sha256('code-0'))).toBe(false);
    expect((await a.store.userById(user.id))!.recovery_hashes).not.toContain(sha256('code-0'));
  });

  it('a password change, a role change and recovery codes spent at once through both instances all hold (none writes back what it read), 10 times', async () => {
    for (let round = 0; round < 10; round++) {
      const [a, b] = people();
      const { account, user } = await userWithCodes(a);
      await a.addUser(account, `${unique('owner')}@acme.test`, 'owner');
      await Promise.all([
        b.store.useRecoveryCode(user.id, sha256('code-1')),
        a.changePassword(user, PASSWORD, NEXT),
        b.setRole(account, user.id, 'owner'),
        a.store.useRecoveryCode(user.id, sha256('code-2')),
      ]);
      const after = (await b.store.userById(user.id))!;
      expect([round, after.role, after.recovery_hashes.length, after.sessions_after_ms > user.sessions_after_ms]).toEqual([round, 'owner', 8, true]);
      expect([round, await verifyPassword(NEXT, after.password_hash)]).toEqual([round, true]);
    }
  });

  it('a removal racing recovery codes and a password change through both instances stays a removal, 10 times', async () => {
    for (let round = 0; round < 10; round++) {
      const [a, b] = people();
      const { account, user } = await userWithCodes(a);
      const session = await b.startSession({ user });
      await Promise.all([
        a.removeUser(account, user.id),
        b.store.useRecoveryCode(user.id, sha256('code-3')),
        b.changePassword(user, PASSWORD, NEXT).catch(() => 'refused: already removed'),
      ]);
      expect([round, (await a.store.userById(user.id))!.removed, (await b.usersOf(account)).length, await a.session(session.id)]).toEqual([round, true, 0, undefined]);
    }
  });

  it('two owners demoting each other at once through both instances leave the account an owner', async () => {
    const [a, b] = people();
    const account = `acct_${unique('owners').replace(/\W/g, '').slice(-16)}`;
    const first = await a.addUser(account, `${unique('first')}@acme.test`, 'owner');
    const second = await a.addUser(account, `${unique('second')}@acme.test`, 'owner');
    const outcomes = await Promise.all([a.setRole(account, first.user.id, 'viewer'), b.removeUser(account, second.user.id)].map((p) => p.then(() => 'done', (e: Error) => e.message)));
    expect((await a.usersOf(account)).filter((u) => u.role === 'owner').length).toBeGreaterThanOrEqual(1);
    expect(outcomes.filter((o) => o === 'done').length).toBeLessThanOrEqual(1);
    for (const o of outcomes) if (o !== 'done') expect(o).toBe('An account keeps at least one owner: make someone else owner first.');
  });

  it(`one email added to one account 6 times at once through both instances gives ${transactions ? 'one user' : 'at most one user'}; another account may have it too`, async () => {
    const [a, b] = people();
    const email = `${unique('twice')}@acme.test`;
    const adds = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).addUser('acct_people0000000002', email, 'viewer').then(() => 'added', () => 'refused')));
    const kept = (await a.usersOf('acct_people0000000002')).filter((u) => u.email === email);
    expect(kept.length).toBe(adds.filter((o) => o === 'added').length);
    if (transactions) expect(kept.length).toBe(1);
    else expect(kept.length).toBeLessThanOrEqual(1);
    await b.addUser('acct_people0000000003', email, 'owner');
    expect((await a.store.usersByEmail(email)).map((u) => u.account_id).sort()).toEqual([...kept.map((u) => u.account_id), 'acct_people0000000003'].sort());
  });

  it('setting a password through one link ends the user\'s other links', async () => {
    const [a, b] = people();
    const { user, link } = await a.addUser('acct_people0000000004', `${unique('links')}@acme.test`, 'viewer');
    const [second, third] = [await a.newLink(user.id), await b.newLink(user.id)];
    await b.setPasswordWithLink(second, PASSWORD);
    for (const older of [link, third]) await expect(a.setPasswordWithLink(older, NEXT)).rejects.toThrow('This link is not valid');
    const later = await b.newLink(user.id);
    await a.changePassword((await a.store.userById(user.id))!, PASSWORD, NEXT);
    await expect(b.setPasswordWithLink(later, 'third-password-44')).rejects.toThrow('This link is not valid');
  });

  it(`10 sign-in attempts at once through both instances from one client: ${transactions ? 'exactly 5' : 'at most 5'} go on, the rest wait, and every one that went on counts`, async () => {
    const [a, b] = instances().map((i) => new SignInThrottle(i.people));
    const email = `${unique('burst')}@acme.test`;
    const now = Date.parse('2026-11-24T12:00:00Z');
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a! : b!).reserve(email, '203.0.113.9', now)));
    const allowed = results.filter((r) => r.waitMs === 0).length;
    const waits = results.filter((r) => r.waitMs > 0).map((r) => r.waitMs);
    if (transactions) expect([allowed, waits]).toEqual([5, Array(5).fill(1_000)]);
    // Without transactions an attempt also counts the ones racing it (held ones included, until released): it may wait longer.
    else expect([allowed <= 5, waits.every((w) => w >= 1_000 && w <= 60_000)]).toEqual([true, true]);
    // The allowed ones stay counted as failures: the next attempt waits (5 failures), unless fewer went on.
    expect((await a!.reserve(email, '203.0.113.9', now)).waitMs).toBe(allowed === 5 ? 1_000 : 0);
  });
}
