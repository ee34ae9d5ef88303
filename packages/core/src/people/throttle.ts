/**
 * Slows password guessing without locking anyone out. Failed sign-ins are counted per
 * (email, client network) and per email; once a count passes its free allowance, the next
 * attempt for that email (from that client, or from anyone) must wait 2^(failures past the
 * allowance) seconds after the last failure, at most `maxDelayMs`; an attempt that comes
 * too early is refused unread (no scrypt spent). A success clears the pair's count; 15
 * minutes without a failure clear any count. The owner at their own address is never held
 * by a stranger's failures until the email's larger allowance is spent, and never for
 * longer than `maxDelayMs`.
 *
 * An attempt is counted BEFORE its password is checked: `reserve` records it as a failure
 * in the backend (`PeopleStore.reserveSignIn`, under SHA-256 hashes of the email and of
 * email and client) in the same step that decides whether it may go on, and only a success
 * takes that back (`succeeded`). So N attempts sent at once are N counted attempts: no more
 * than the allowance reach the hash, however many processes share the backend.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { PeopleStore, SignInAttempt, SignInRow } from './types.js';

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

/** A reservation `reserve` made: settle it with `succeeded`, or leave it (it stays a failure). */
export type ReservedAttempt = SignInAttempt & { readonly pairKey: string };

/**
 * @example
 * const throttle = new SignInThrottle(backend.people);
 * const { waitMs, attempt } = await throttle.reserve(email, clientNetwork(ip), Date.now()); // waitMs > 0: answer 429 with Retry-After
 * if (await passwordIsRight()) await throttle.succeeded(attempt!, Date.now()); // else the reservation stays a failure
 */
export class SignInThrottle {
  private readonly options: Required<ThrottleOptions>;

  constructor(private readonly store: PeopleStore, options: ThrottleOptions = {}) {
    this.options = { ...THROTTLE_DEFAULTS, ...options };
  }

  /**
   * Counts an attempt for `email` (or a shared link's `linkThrottleSubject`) from `client`
   * (a client network: an IPv6 client's /64) before its password is checked. `waitMs` > 0:
   * refused, nothing counted, try again then; otherwise `attempt` is counted as a failure
   * until `succeeded` says otherwise.
   */
  async reserve(email: string, client: string, now: number): Promise<{ waitMs: number; attempt?: ReservedAttempt }> {
    const { perClientFree, perEmailFree } = this.options;
    const pairKey = keyOf(email, client);
    const attempt: ReservedAttempt = {
      id: randomBytes(12).toString('hex'), at_ms: now, pairKey,
      keys: [{ key: pairKey, read: perClientFree + SATURATED }, { key: keyOf(email), read: perEmailFree + SATURATED }],
    };
    const waitMs = await this.store.reserveSignIn(attempt, ([pair = [], all = []]) =>
      Math.max(this.wait(pair, perClientFree, now), this.wait(all, perEmailFree, now)));
    return waitMs > 0 ? { waitMs } : { waitMs, attempt };
  }

  /** The reserved attempt succeeded: it clears its (email, client) count and is not a failure of the email. */
  async succeeded(attempt: ReservedAttempt, now: number): Promise<void> {
    await this.store.signInSucceeded(attempt, [attempt.pairKey], now);
  }

  /** How long an attempt at `now` waits behind `rows` (a key's newest first): 0 within the allowance. */
  private wait(rows: SignInRow[], free: number, now: number): number {
    let failures = 0;
    let after = now;
    // The failures still counted: back to a success or a gap of `forgetMs` (the newest within `forgetMs` of now).
    for (const row of rows) {
      if (!row.failed || after - row.at_ms >= this.options.forgetMs) break;
      failures++;
      after = row.at_ms;
    }
    if (failures < free) return 0;
    const delay = Math.min(1000 * 2 ** (failures - free), this.options.maxDelayMs);
    return Math.max(0, rows[0]!.at_ms + delay - now);
  }
}
