/**
 * A shared link's password under concurrency, over real HTTPS on loopback and a real SQLite
 * file: guesses fired at once (`Promise.all`) at one link, each request bound to a loopback
 * address of its round (IPv6 clients through `X-Forwarded-For` behind a trusted proxy).
 * Hashes are counted through `People.hashChecks`, as sign-in-races.test.ts counts sign-ins'.
 * The dashboard's clock is held still during a burst, so no throttle wait runs out while it
 * lasts; the per-address limit of 10 posts a minute is off here (the test dashboard's
 * default), so every 429 is the throttle's. The same race through two instances on
 * ClickHouse is testing/sharing.ts's.
 */
import { SharedLinks } from '@siteline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashboard, type TestDashboard } from '../dashboard/test-helpers.js';
import { postForm } from '../people/people-test-helpers.js';

const PASSWORD = 'harbour-lantern-77';
const ROUNDS = 5;
const statusesOf = (replies: { status: number }[]) => replies.map((r) => r.status).sort();

/** A dashboard whose clock is the real one, or held still while `frozen` is set. */
async function dashboard(options: { trustProxy?: boolean } = {}) {
  let frozen: number | undefined;
  const t = await startDashboard({ cloud: true, dashboard: { now: () => frozen ?? Date.now(), ...options } });
  const links = new SharedLinks(t.backend.shares, t.people);
  const site = (await t.backend.storage.getSite('ST-demo'))!;
  return {
    t,
    newLink: async (name: string) => (await links.create(site, { name, password: PASSWORD })).token,
    hold: (held: boolean) => (frozen = held ? Date.now() : undefined),
  };
}

describe('a shared link\'s password: guesses at once are counted before their hash', () => {
  let d: Awaited<ReturnType<typeof dashboard>>;
  beforeAll(async () => (d = await dashboard()));
  afterAll(() => d?.t.close());
  const guess = (token: string, password: string, from: string) =>
    postForm(d.t, `/share/${token}/password`, { password, view: '' }, { from });

  it(`10 wrong passwords at once at one link from one address, ${ROUNDS} rounds: 5 × 401 and 5 × 429, five hashes; the right password then gets 429 and no hash, from another address 303`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const token = await d.newLink(`Board ${round}`);
      const [attacker, owner] = [`127.0.0.${10 + round}`, `127.0.0.${20 + round}`];
      const before = d.t.people.hashChecks;
      d.hold(true);
      const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => guess(token, `wrong-guess-${i}`, attacker)));
      // 5 free failures per link and client network (docs/behaviour.md "Shared links", the sign-in throttle's figures).
      expect([round, statusesOf(replies)]).toEqual([round, [401, 401, 401, 401, 401, 429, 429, 429, 429, 429]]);
      expect([round, d.t.people.hashChecks - before]).toEqual([round, 5]);
      expect(replies.filter((r) => r.status === 429).map((r) => r.headers['retry-after'])).toEqual(Array(5).fill('1'));
      // No success past the limit: the right password waits too, and costs no hash.
      const right = await guess(token, PASSWORD, attacker);
      expect([round, right.status, right.headers['retry-after'], right.headers['set-cookie']]).toEqual([round, 429, '1', undefined]);
      expect([round, d.t.people.hashChecks - before]).toEqual([round, 5]);
      // Another client's own allowance is untouched (the link's 50 are not spent): its right password opens the link.
      const other = await guess(token, PASSWORD, owner);
      expect([round, other.status, other.headers.location]).toEqual([round, 303, `/share/${token}/`]);
      expect([round, d.t.people.hashChecks - before]).toEqual([round, 6]);
      d.hold(false);
    }
  }, 120_000);

  it('10 guesses at once at one link from one address, the right one among them, 5 rounds: one hash per answer that is not 429, exactly 5 unless the right one opened (its success clears the count), at most one 303', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const token = await d.newLink(`Mixed ${round}`);
      const before = d.t.people.hashChecks;
      d.hold(true);
      const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => guess(token, i === round * 2 ? PASSWORD : `wrong-guess-${i}`, `127.0.0.${30 + round}`)));
      d.hold(false);
      const statuses = replies.map((r) => r.status);
      const hashed = statuses.filter((s) => s !== 429).length;
      expect([round, statuses.every((s) => [303, 401, 429].includes(s))]).toEqual([round, true]);
      expect([round, d.t.people.hashChecks - before]).toEqual([round, hashed]);
      // A right password clears the client's count, so guesses reserved after it may go on: more than 5 only then.
      if (!statuses.includes(303)) expect([round, hashed]).toEqual([round, 5]);
      expect([round, statuses.filter((s) => s === 303).length <= 1]).toEqual([round, true]);
    }
  }, 120_000);
});

describe('a shared link\'s password counts an IPv6 client by its /64, as sign-in does', () => {
  let d: Awaited<ReturnType<typeof dashboard>>;
  beforeAll(async () => (d = await dashboard({ trustProxy: true })));
  afterAll(() => d?.t.close());
  const viaProxy = (token: string, password: string, client: string) =>
    postForm(d.t, `/share/${token}/password`, { password, view: '' }, { headers: { 'X-Forwarded-For': client, 'X-Forwarded-Proto': 'https' } });

  it('10 wrong guesses at once from 2001:db8:5:1::1 … ::a: 5 × 401, 5 × 429, five hashes; ::ff of that /64 is held, another /64 opens', async () => {
    const token = await d.newLink('IPv6');
    const before = d.t.people.hashChecks;
    d.hold(true);
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => viaProxy(token, `wrong-guess-${i}`, `2001:db8:5:1::${(i + 1).toString(16)}`)));
    expect(statusesOf(replies)).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
    expect(d.t.people.hashChecks - before).toBe(5);
    expect((await viaProxy(token, PASSWORD, '2001:db8:5:1::ff')).status).toBe(429);
    expect((await viaProxy(token, PASSWORD, '2001:db8:5:2::1')).status).toBe(303);
    expect(d.t.people.hashChecks - before).toBe(6);
    d.hold(false);
  });
});
