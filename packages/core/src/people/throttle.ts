/**
 * Slows password guessing without locking anyone out. Failed sign-ins are counted per
 * (email, client address) and per email; once a count passes its free allowance, the next
 * attempt for that email (from that client, or from anyone) must wait 2^(failures past the
 * allowance) seconds after the last failure, at most `maxDelayMs`; an attempt that comes
 * too early is refused unread (no scrypt spent). A success clears the pair's count; 15
 * minutes without a failure clear any count. The owner at their own address is never held
 * by a stranger's failures until the email's larger allowance is spent, and never for
 * longer than `maxDelayMs`.
 *
 * The attempts live in the backend (`PeopleStore.addSignIn`, under SHA-256 hashes of the
 * email and of email and client), so every server process on one backend counts the same
 * failures: N processes allow what one does, not N times as much.
 */
import { createHash } from 'node:crypto';
import type { PeopleStore } from './types.js';

export interface ThrottleOptions {
  /** Free failures of one email from one client; default 5. */
  perClientFree?: number;
  /** Free failures of one email from all clients together; default 50. */
  perEmailFree?: number;
  /** Longest wait; default 60 s. */
  maxDelayMs?: number;
  /** Counts are forgotten this long after their last failure; default 15 minutes. */
  forgetMs?: number;
}

export const THROTTLE_DEFAULTS = { perClientFree: 5, perEmailFree: 50, maxDelayMs: 60_000, forgetMs: 15 * 60_000 } as const;

/** Past this many failures beyond the allowance the wait is `maxDelayMs` whatever the count (2^6 s > 60 s): no need to read more. */
const SATURATED = 8;

const keyOf = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('hex');

/**
 * @example
 * const throttle = new SignInThrottle(backend.people);
 * const wait = await throttle.waitMs(email, ip, Date.now()); // > 0: answer 429 with Retry-After
 * ok ? await throttle.succeeded(email, ip, Date.now()) : await throttle.failed(email, ip, Date.now());
 */
export class SignInThrottle {
  private readonly options: Required<ThrottleOptions>;

  constructor(private readonly store: PeopleStore, options: ThrottleOptions = {}) {
    this.options = { ...THROTTLE_DEFAULTS, ...options };
  }

  /** How long this attempt must still wait (0: go ahead). */
  async waitMs(email: string, client: string, now: number): Promise<number> {
    const [pair, all] = await Promise.all([this.wait(keyOf(email, client), this.options.perClientFree, now), this.wait(keyOf(email), this.options.perEmailFree, now)]);
    return Math.max(pair, all);
  }

  async failed(email: string, client: string, now: number): Promise<void> {
    await Promise.all([this.store.addSignIn(keyOf(email, client), now, true), this.store.addSignIn(keyOf(email), now, true)]);
  }

  async succeeded(email: string, client: string, now: number): Promise<void> {
    await this.store.addSignIn(keyOf(email, client), now, false);
  }

  /** The failures still counted: newest first, back to a success or a gap of `forgetMs` (the newest within `forgetMs` of now). */
  private async count(key: string, free: number, now: number): Promise<{ failures: number; lastMs: number }> {
    const rows = await this.store.signIns(key, free + SATURATED);
    let failures = 0;
    let after = now;
    for (const row of rows) {
      if (!row.failed || after - row.at_ms >= this.options.forgetMs) break;
      failures++;
      after = row.at_ms;
    }
    return { failures, lastMs: rows[0]?.at_ms ?? 0 };
  }

  private async wait(key: string, free: number, now: number): Promise<number> {
    const { failures, lastMs } = await this.count(key, free, now);
    if (failures < free) return 0;
    const delay = Math.min(1000 * 2 ** (failures - free), this.options.maxDelayMs);
    return Math.max(0, lastMs + delay - now);
  }
}
