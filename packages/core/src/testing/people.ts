import { expect, it } from 'vitest';
import type { Backend } from '../backend.js';
import { LINK_TTL_MS, People, SESSION_LIMITS } from '../people/people.js';

/**
 * Users, one-time links and web sessions through two instances opened on the same data (two
 * server processes): what one writes or ends, the other sees at once. Part of `testBackend`.
 */
export function peopleCases(instances: () => [Backend, Backend]): void {
  let t = Date.parse('2026-11-24T10:00:00Z');
  const people = () => instances().map((b) => new People(b.people, { now: () => t })) as [People, People];
  const owner = `owner-${Date.now()}@acme.test`;

  it('a one-time link sets the password once, within 24 hours; a refused password does not spend it', async () => {
    const [a, b] = people();
    const { user, link } = await a.addUser('acct_people0000000001', `  ${owner.toUpperCase()} `, 'owner');
    expect(user).toMatchObject({ email: owner, role: 'owner', password_hash: '', removed: false });
    await expect(a.addUser('acct_people0000000001', owner, 'viewer')).rejects.toThrow(`There is already a user ${owner}.`);
    await expect(b.setPasswordWithLink(link, 'short')).rejects.toThrow('A password needs at least 10 characters.');
    await expect(b.setPasswordWithLink(link, 'Password123')).rejects.toThrow('This password is among the most common ones; choose another.');
    const set = await b.setPasswordWithLink(link, 'tulip-orbit-42-canyon');
    expect(set.password_hash).toMatch(/^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    await expect(a.setPasswordWithLink(link, 'another-good-pass-9')).rejects.toThrow('This link is not valid');
    expect((await a.checkPassword(owner, 'tulip-orbit-42-canyon'))?.id).toBe(user.id);
    expect(await a.checkPassword(owner, 'tulip-orbit-42-canyoN')).toBeUndefined();
    expect(await a.checkPassword('nobody@acme.test', 'tulip-orbit-42-canyon')).toBeUndefined();

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
    const user = (await a.store.userByEmail(owner))!;
    const { id, session } = await a.startSession({ userId: user.id, accountId: user.account_id });
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

    const second = await a.startSession({ userId: user.id, accountId: user.account_id });
    await b.endSession(second.id);
    expect(await a.session(second.id)).toBeUndefined();

    const old = await a.startSession({ userId: user.id, accountId: user.account_id });
    for (let i = 0; i < 60; i++) {
      t += SESSION_LIMITS.idleMs / 2;
      if (!(await b.session(old.id))) break;
    }
    expect(t - old.session.created_ms).toBe(SESSION_LIMITS.maxAgeMs); // ended by absolute expiry, used every 15 minutes

    const [x, y] = [await a.startSession({ userId: user.id, accountId: '' }), await b.startSession({ userId: user.id, accountId: '' })];
    t += 1;
    await b.changePassword(user, 'tulip-orbit-42-canyon', 'new-orbit-tulip-43');
    expect([await a.session(x.id), await b.session(y.id)]).toEqual([undefined, undefined]);
    const after = await a.startSession({ userId: user.id, accountId: '' });
    expect((await b.session(after.id))?.user?.id).toBe(user.id);
  });

  it('keeps at least one owner; a removed user is signed out everywhere', async () => {
    const [a, b] = people();
    const account = `acct_people${String(Date.now()).slice(-9)}`;
    const first = await a.addUser(account, `first-${Date.now()}@acme.test`, 'owner');
    await expect(b.setRole(account, first.user.id, 'viewer')).rejects.toThrow('An account keeps at least one owner');
    await expect(b.removeUser(account, first.user.id)).rejects.toThrow('An account keeps at least one owner');
    const second = await a.addUser(account, `second-${Date.now()}@acme.test`, 'viewer');
    expect((await b.setRole(account, second.user.id, 'owner')).role).toBe('owner');
    const session = await a.startSession({ userId: second.user.id, accountId: account });
    t += 1;
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
}
