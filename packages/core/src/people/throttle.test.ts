import { describe, expect, it } from 'vitest';
import { SignInThrottle } from './throttle.js';

const T0 = Date.parse('2026-11-24T10:00:00Z');

/** Guesses as fast as the throttle allows, `count` times; returns the waits it imposed (s) and when the last guess happened. */
function flood(throttle: SignInThrottle, email: string, client: string, count: number, start = T0) {
  let now = start;
  const waits: number[] = [];
  for (let i = 0; i < count; i++) {
    const wait = throttle.waitMs(email, client, now);
    if (wait > 0) {
      waits.push(wait / 1000);
      now += wait;
    }
    throttle.failed(email, client, now);
  }
  return { waits, now };
}

describe('SignInThrottle', () => {
  it('one client: 5 free failures, then waits of 1, 2, 4, … seconds up to 60; 100 guesses take 89 minutes', () => {
    const { waits, now } = flood(new SignInThrottle(), 'owner@acme.test', '203.0.113.9', 100);
    expect(waits.slice(0, 8)).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect(waits).toHaveLength(95);
    expect((now - T0) / 60_000).toBeCloseTo((1 + 2 + 4 + 8 + 16 + 32 + 60 * 89) / 60, 5); // 89.05 minutes
  });

  it('the owner at another address is not held by a stranger\'s 49 failures, and waits at most 60 s after many more', () => {
    const throttle = new SignInThrottle();
    const attack = flood(throttle, 'owner@acme.test', '203.0.113.9', 49);
    expect(throttle.waitMs('owner@acme.test', '198.51.100.7', attack.now)).toBe(0);
    // Clients from 100 addresses, 5 free guesses each: the email's own allowance (50) is spent, then its waits start.
    let now = attack.now;
    for (let i = 0; i < 100; i++) now = flood(throttle, 'owner@acme.test', `192.0.2.${i}`, 5, now).now;
    const ownerWait = throttle.waitMs('owner@acme.test', '198.51.100.7', now);
    expect(ownerWait).toBeGreaterThan(0);
    expect(ownerWait).toBeLessThanOrEqual(60_000);
  });

  it('a success clears that client\'s count; 15 quiet minutes clear any count; other emails are not affected', () => {
    const throttle = new SignInThrottle();
    const { now } = flood(throttle, 'a@acme.test', 'c', 7);
    expect(throttle.waitMs('a@acme.test', 'c', now)).toBe(4_000);
    expect(throttle.waitMs('b@acme.test', 'c', now)).toBe(0);
    throttle.succeeded('a@acme.test', 'c');
    expect(throttle.waitMs('a@acme.test', 'c', now)).toBe(0);
    flood(throttle, 'a@acme.test', 'd', 6, now);
    expect(throttle.waitMs('a@acme.test', 'd', now + 15 * 60_000 + 2_000)).toBe(0);
  });
});
