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
  /** Requests left right now. */
  remaining: number;
  /**
   * Whole seconds until the oldest request still counted leaves the window, so `remaining`
   * grows again (at least 1). After a refusal, the wait before a request is admitted.
   */
  resetSeconds: number;
}

/** Sub-windows of a window: a request counts for between 1 and 1 + 1/SLOTS windows. */
const SLOTS = 120;

interface KeyWindow {
  /** Admitted requests per slot, a ring over the newest SLOTS + 1 slots. */
  counts: Uint32Array;
  /** Newest slot (absolute: ms since the epoch / slot length). */
  slot: number;
  /** Sum of `counts`. */
  total: number;
}

/**
 * A sliding window per key, in memory (one process): a request is admitted when fewer than
 * `limit` requests were admitted in the current slot (1/120 of the window) and the 120
 * before it. Those 121 slots cover every window of `windowMs` that ends now, so no
 * `windowMs` anywhere (across what a fixed window would call a boundary too) admits more
 * than `limit`. Refused requests are not counted: a client that waits gets in. Memory is a
 * few hundred bytes per key that was used in the last window.
 *
 * @example
 * const limiter = new RateLimiter({ limit: 600, windowMs: 60_000 });
 * if (!limiter.hit(principal.keyId, Date.now()).allowed) answer429();
 */
export class RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  private readonly slotMs: number;
  private readonly windows = new Map<string, KeyWindow>();
  private lastSweep = 0;

  constructor(options: RateLimitOptions = {}) {
    this.limit = options.limit ?? 600;
    this.windowMs = options.windowMs ?? 60_000;
    if (!(this.limit >= 1 && this.windowMs >= 1)) throw new Error('Rate limit and window must be positive.');
    this.slotMs = this.windowMs / SLOTS;
  }

  /** Counts one request of `key` at `now` if it is admitted, and says whether it is. */
  hit(key: string, now: number): RateLimitResult {
    this.sweep(now);
    const slot = Math.floor(now / this.slotMs);
    let window = this.windows.get(key);
    if (!window) this.windows.set(key, (window = { counts: new Uint32Array(SLOTS + 1), slot, total: 0 }));
    advance(window, slot);
    const allowed = window.total < this.limit;
    if (allowed) {
      window.counts[ring(window.slot)]!++;
      window.total++;
    }
    return { allowed, limit: this.limit, remaining: this.limit - window.total, resetSeconds: this.resetSeconds(window, now) };
  }

  /** Until the oldest slot with a request stops being counted (when the newest slot is SLOTS + 1 later). */
  private resetSeconds(window: KeyWindow, now: number): number {
    let oldest = window.slot;
    for (let s = window.slot - SLOTS; s < window.slot; s++) {
      if (window.counts[ring(s)]! > 0) {
        oldest = s;
        break;
      }
    }
    const until = (oldest + SLOTS + 1) * this.slotMs - now;
    return Math.max(1, Math.ceil(until / 1000));
  }

  /** Drops keys with nothing counted any more, at most once a window. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    const slot = Math.floor(now / this.slotMs);
    for (const [key, w] of this.windows) if (slot - w.slot > SLOTS) this.windows.delete(key);
  }
}

/** Moves the window's newest slot to `slot`, dropping the slots that fall out (a clock set back counts in the newest). */
function advance(window: KeyWindow, slot: number): void {
  if (slot <= window.slot) return;
  const steps = Math.min(slot - window.slot, SLOTS + 1);
  for (let s = window.slot + 1; s <= window.slot + steps; s++) {
    const i = ring(s);
    window.total -= window.counts[i]!;
    window.counts[i] = 0;
  }
  window.slot = slot;
}

/** Index of an absolute slot in the ring (slots before the epoch included). */
function ring(slot: number): number {
  return ((slot % (SLOTS + 1)) + SLOTS + 1) % (SLOTS + 1);
}
