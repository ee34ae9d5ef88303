import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit.js';

const MINUTE = 60_000;
/** A clock reading on a whole minute, so "minute boundaries" of a fixed window are easy to name. */
const T = 29_000_000 * MINUTE;

describe('RateLimiter (sliding window)', () => {
  it('admits no more than the limit across what a fixed window would call a minute boundary', () => {
    const limiter = new RateLimiter({ limit: 60, windowMs: MINUTE });
    // 60 requests at 0:59.0 ... 0:59.9 (all admitted), then 60 more at 1:01: a fixed window would
    // start afresh at 1:00 and admit those too (120 in 3 s); the sliding window admits none.
    const early = Array.from({ length: 60 }, (_, i) => limiter.hit('k', T + 59_000 + i * 15).allowed);
    expect(early.filter(Boolean)).toHaveLength(60);
    const late = Array.from({ length: 60 }, () => limiter.hit('k', T + 61_000));
    expect(late.filter((r) => r.allowed)).toHaveLength(0);
    // Slots are 0.5 s. The slot 0:59.0-0:59.5 holds the early requests i = 0..33 (34 of them, at
    // +0..495 ms) and stops counting 121 slots after it began: at 0:59.0 + 60.5 s = 1:59.5, which
    // is 58.5 s after 1:01, so Reset and Retry-After say 59. Then exactly those 34 get back in.
    expect(late[0]).toMatchObject({ remaining: 0, resetSeconds: 59 });
    expect(limiter.hit('k', T + 119_499).allowed).toBe(false);
    const reopened = Array.from({ length: 40 }, () => limiter.hit('k', T + 119_500).allowed);
    expect(reopened.filter(Boolean)).toHaveLength(34);
  });

  it('counts only admitted requests, per key, and says how long until one is admitted', () => {
    const limiter = new RateLimiter({ limit: 2, windowMs: MINUTE });
    expect(limiter.hit('a', T)).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 61 });
    expect(limiter.hit('a', T + 15_000)).toEqual({ allowed: true, limit: 2, remaining: 0, resetSeconds: 46 });
    expect(limiter.hit('a', T + 20_000)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 41 });
    expect(limiter.hit('b', T + 20_000).allowed).toBe(true);
    // The first request counts until T + 60.5 s (its slot T..T+0.5 s is dropped when T + 60.5 s begins).
    expect(limiter.hit('a', T + 60_499).allowed).toBe(false);
    expect(limiter.hit('a', T + 60_500)).toEqual({ allowed: true, limit: 2, remaining: 0, resetSeconds: 15 });
  });

  it('never admits more than the limit in any 60 seconds of a long random stream', () => {
    const limiter = new RateLimiter({ limit: 50, windowMs: MINUTE });
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const admitted: number[] = [];
    for (let t = T; t < T + 10 * MINUTE; t += Math.floor(random() * 2_000)) if (limiter.hit('k', t).allowed) admitted.push(t);
    let most = 0;
    for (let i = 0, j = 0; i < admitted.length; i++) {
      while (admitted[i]! - admitted[j]! >= MINUTE) j++;
      most = Math.max(most, i - j + 1);
    }
    expect(most).toBe(50); // reached (the stream is ~60 a minute) and never passed
  });
});
