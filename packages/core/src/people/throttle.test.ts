import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Backend } from '../backend.js';
import { openSqliteBackend } from '../storage/sqlite/sqlite-backend.js';
import { SignInThrottle } from './throttle.js';

const T0 = Date.parse('2026-11-24T10:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'siteline-throttle-'));
const opened: Backend[] = [];
afterAll(async () => {
  for (const backend of opened) await backend.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A throttle over a SQLite file of its own, or over `file` shared with another instance (a second server process). */
function throttleOn(file = `throttle-${opened.length}.db`): SignInThrottle {
  const backend = openSqliteBackend(join(dir, file));
  opened.push(backend);
  return new SignInThrottle(backend.people);
}

/** Guesses as fast as the throttles allow (taking turns), `count` wrong guesses; returns the waits imposed (s) and when the last guess happened. */
async function flood(throttles: SignInThrottle[], email: string, client: string, count: number, start = T0) {
  let now = start;
  const waits: number[] = [];
  for (let i = 0; i < count; i++) {
    const throttle = throttles[i % throttles.length]!;
    const { waitMs } = await throttle.reserve(email, client, now);
    if (waitMs > 0) {
      waits.push(waitMs / 1000);
      now += waitMs;
      expect((await throttle.reserve(email, client, now)).waitMs).toBe(0); // after the wait it goes on, and stays a failure
    }
  }
  return { waits, now };
}

/** The wait an attempt now would get (0: it goes on, and counts as a failure). */
const waitOf = async (throttle: SignInThrottle, email: string, client: string, now: number) => (await throttle.reserve(email, client, now)).waitMs;

describe('SignInThrottle (counted in the backend)', () => {
  it('one client: 5 free failures, then waits of 1, 2, 4, … seconds up to 60; 100 guesses take 89 minutes', async () => {
    const { waits, now } = await flood([throttleOn()], 'owner@acme.test', '203.0.113.9', 100);
    expect(waits.slice(0, 8)).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect(waits).toHaveLength(95);
    expect((now - T0) / 60_000).toBeCloseTo((1 + 2 + 4 + 8 + 16 + 32 + 60 * 89) / 60, 5); // 89.05 minutes
  });

  it('two server processes on one backend share the counts: the same figures as one, not twice as many free guesses', async () => {
    const [a, b] = [throttleOn('shared.db'), throttleOn('shared.db')];
    const { waits, now } = await flood([a, b], 'owner@acme.test', '203.0.113.9', 100);
    expect(waits.slice(0, 8)).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect(waits).toHaveLength(95);
    expect((now - T0) / 60_000).toBeCloseTo((1 + 2 + 4 + 8 + 16 + 32 + 60 * 89) / 60, 5);
    // Five failures through one process, and the other holds the sixth attempt for a second.
    const c = throttleOn('shared.db');
    for (let i = 0; i < 5; i++) expect(await waitOf(c, 'pat@acme.test', '198.51.100.7', T0)).toBe(0);
    expect(await waitOf(a, 'pat@acme.test', '198.51.100.7', T0)).toBe(1_000);
    expect(await waitOf(b, 'pat@acme.test', '198.51.100.7', T0 + 400)).toBe(600);
  });

  it('the owner at another address is not held by a stranger\'s 49 failures, and waits at most 60 s after many more', async () => {
    const throttle = throttleOn();
    const attack = await flood([throttle], 'owner@acme.test', '203.0.113.9', 49);
    const owner = await throttle.reserve('owner@acme.test', '198.51.100.7', attack.now);
    expect(owner.waitMs).toBe(0);
    await throttle.succeeded(owner.attempt!, attack.now); // the owner's right password: not a failure of the email
    // Clients from 100 addresses, 5 free guesses each: the email's own allowance (50) is spent, then its waits start.
    let now = attack.now;
    for (let i = 0; i < 100; i++) now = (await flood([throttle], 'owner@acme.test', `192.0.2.${i}`, 5, now)).now;
    const ownerWait = await waitOf(throttle, 'owner@acme.test', '198.51.100.7', now);
    expect(ownerWait).toBeGreaterThan(0);
    expect(ownerWait).toBeLessThanOrEqual(60_000);
  });

  it('a success clears that client\'s count; 15 quiet minutes clear any count; other emails are not affected', async () => {
    const throttle = throttleOn();
    const { now } = await flood([throttle], 'a@acme.test', 'c', 7);
    expect(await waitOf(throttle, 'a@acme.test', 'c', now)).toBe(4_000);
    expect(await waitOf(throttle, 'b@acme.test', 'c', now)).toBe(0);
    const right = await throttle.reserve('a@acme.test', 'c', now + 4_000);
    await throttle.succeeded(right.attempt!, now + 4_000);
    expect(await waitOf(throttle, 'a@acme.test', 'c', now + 4_000)).toBe(0);
    const { now: later } = await flood([throttle], 'a@acme.test', 'd', 6, now);
    expect(await waitOf(throttle, 'a@acme.test', 'd', later + 15 * 60_000)).toBe(0);
  });
});
