/** Requests allowed per key and window. */
export interface RateLimitOptions {
  /** Requests per window; default 600. */
  limit?: number;
  /** Window length in ms; default 60,000. */
  windowMs?: number;
}

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/**
 * Fixed-window counter per key, in memory (one process). Memory stays
 * bounded: entries of past windows are dropped as the map is swept.
 */
export class RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  private readonly windows = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(options: RateLimitOptions = {}) {
    this.limit = options.limit ?? 600;
    this.windowMs = options.windowMs ?? 60_000;
    if (!(this.limit >= 1 && this.windowMs >= 1)) throw new Error('Rate limit and window must be positive.');
  }

  /** Counts one request of `key` at `now` and says whether it may proceed. */
  hit(key: string, now: number): RateLimitResult {
    this.sweep(now);
    const start = now - (now % this.windowMs);
    let window = this.windows.get(key);
    if (!window || window.start !== start) this.windows.set(key, (window = { start, count: 0 }));
    window.count++;
    return {
      allowed: window.count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      resetSeconds: Math.max(1, Math.ceil((start + this.windowMs - now) / 1000)),
    };
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [key, w] of this.windows) if (w.start + this.windowMs <= now) this.windows.delete(key);
  }
}
