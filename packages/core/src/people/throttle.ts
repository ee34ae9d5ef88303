/**
 * Slows password guessing without locking anyone out. Failed sign-ins are counted per
 * (email, client address) and per email; once a count passes its free allowance, the next
 * attempt for that email (from that client, or from anyone) must wait 2^(failures past the
 * allowance) seconds after the last failure, at most `maxDelayMs`; an attempt that comes
 * too early is refused unread (no scrypt spent). A success clears the pair's count; 15
 * minutes without a failure clear any count. The owner at their own address is never held
 * by a stranger's failures until the email's larger allowance is spent, and never for
 * longer than `maxDelayMs`. In memory of one process (several processes each count).
 */
export interface ThrottleOptions {
  /** Free failures of one email from one client; default 5. */
  perClientFree?: number;
  /** Free failures of one email from all clients together; default 50. */
  perEmailFree?: number;
  /** Longest wait; default 60 s. */
  maxDelayMs?: number;
  /** Counts are forgotten this long after their last failure; default 15 minutes. */
  forgetMs?: number;
  /** Entries kept at most (oldest dropped first); default 100,000. */
  maxEntries?: number;
}

export const THROTTLE_DEFAULTS = { perClientFree: 5, perEmailFree: 50, maxDelayMs: 60_000, forgetMs: 15 * 60_000, maxEntries: 100_000 } as const;

interface Count {
  failures: number;
  lastMs: number;
}

/**
 * @example
 * const throttle = new SignInThrottle();
 * const wait = throttle.waitMs(email, ip, Date.now()); // > 0: answer 429 with Retry-After
 * ok ? throttle.succeeded(email, ip) : throttle.failed(email, ip, Date.now());
 */
export class SignInThrottle {
  private readonly options: Required<ThrottleOptions>;
  private readonly counts = new Map<string, Count>();

  constructor(options: ThrottleOptions = {}) {
    this.options = { ...THROTTLE_DEFAULTS, ...options };
  }

  /** How long this attempt must still wait (0: go ahead). */
  waitMs(email: string, client: string, now: number): number {
    return Math.max(this.wait(`${email}\n${client}`, this.options.perClientFree, now), this.wait(email, this.options.perEmailFree, now));
  }

  failed(email: string, client: string, now: number): void {
    for (const key of [`${email}\n${client}`, email]) {
      const count = this.live(key, now);
      this.counts.delete(key); // re-inserted last: Map order is oldest failure first
      this.counts.set(key, { failures: (count?.failures ?? 0) + 1, lastMs: now });
    }
    while (this.counts.size > this.options.maxEntries) this.counts.delete(this.counts.keys().next().value!);
  }

  succeeded(email: string, client: string): void {
    this.counts.delete(`${email}\n${client}`);
  }

  private live(key: string, now: number): Count | undefined {
    const count = this.counts.get(key);
    return count && now - count.lastMs < this.options.forgetMs ? count : undefined;
  }

  private wait(key: string, free: number, now: number): number {
    const count = this.live(key, now);
    if (!count || count.failures < free) return 0;
    const delay = Math.min(1000 * 2 ** (count.failures - free), this.options.maxDelayMs);
    return Math.max(0, count.lastMs + delay - now);
  }
}
