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

/** Guesses as fast as the throttles allow (taking turns), `count` times; returns the waits imposed (s) and when the last guess happened. */
async function flood(throttles: SignInThrottle[], email: string, client: string, count: number, start = T0) {
  let now = start;
  const waits: number[] = [];
  for (let i = 0; i < count; i++) {
    const throttle = throttles[i % throttles.length]!;
    const wait = await throttle.waitMs(email, client, now);
    if (wait > 0) {
      waits.push(wait / 1000);
      now += wait;
    }
    await throttle.failed(email, client, now);
  }
  return { waits, now };
}

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
    for (let i = 0; i < 5; i++) await c.failed('pat@acme.test', '198.51.100.7', T0);
    expect(await a.waitMs('pat@acme.test', '198.51.100.7', T0)).toBe(1_000);
    expect(await b.waitMs('pat@acme.test', '198.51.100.7', T0 + 400)).toBe(600);
  });

  it('the owner at another address is not held by a stranger\'s 49 failures, and waits at most 60 s after many more', async () => {
    const throttle = throttleOn();
    const attack = await flood([throttle], 'owner@acme.test', '203.0.113.9', 49);
    expect(await throttle.waitMs('owner@acme.test', '198.51.100.7', attack.now)).toBe(0);
    // Clients from 100 addresses, 5 free guesses each: the email's own allowance (50) is spent, then its waits start.
    let now = attack.now;
    for (let i = 0; i < 100; i++) now = (await flood([throttle], 'owner@acme.test', `192.0.2.${i}`, 5, now)).now;
    const ownerWait = await throttle.waitMs('owner@acme.test', '198.51.100.7', now);
    expect(ownerWait).toBeGreaterThan(0);
    expect(ownerWait).toBeLessThanOrEqual(60_000);
  });

  it('a success clears that client\'s count; 15 quiet minutes clear any count; other emails are not affected', async () => {
    const throttle = throttleOn();
    const { now } = await flood([throttle], 'a@acme.test', 'c', 7);
    expect(await throttle.waitMs('a@acme.test', 'c', now)).toBe(4_000);
    expect(await throttle.waitMs('b@acme.test', 'c', now)).toBe(0);
    await throttle.succeeded('a@acme.test', 'c', now);
    expect(await throttle.waitMs('a@acme.test', 'c', now)).toBe(0);
    await flood([throttle], 'a@acme.test', 'd', 6, now);
    expect(await throttle.waitMs('a@acme.test', 'd', now + 15 * 60_000 + 2_000)).toBe(0);
  });
});
