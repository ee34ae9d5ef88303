/**
 * Budgets per client network, for what anyone can send without a key (beacons) or with a
 * wrong one (failed authentications). A token bucket per client: `limit` tokens, refilled
 * at `limit` per `windowMs`, so a client may spend its whole budget at once and then
 * `limit` per window. Memory stays bounded however many clients there are: a full bucket
 * is forgotten (a new one is the same), and past `maxClients` tracked clients the rest
 * share one bucket.
 */

export interface ClientBudgetOptions {
  /** Units per window, and the largest burst. */
  limit: number;
  /** Window length in ms; default 60,000. */
  windowMs?: number;
  /** Clients tracked one by one at most; default 50,000 (a few MB). */
  maxClients?: number;
}

/** The bucket clients share once `maxClients` are tracked. */
const OVERFLOW = '\u0000overflow';

/**
 * Token buckets keyed by client network (`clientNetwork`), in memory (one process).
 * @example
 * const failures = new ClientBudget({ limit: 30 });
 * if (!failures.has(network, Date.now())) refuse(failures.retryAfterSeconds(network, Date.now()));
 */
export class ClientBudget {
  readonly limit: number;
  readonly windowMs: number;
  private readonly maxClients: number;
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private lastSweep = 0;

  constructor(options: ClientBudgetOptions) {
    this.limit = options.limit;
    this.windowMs = options.windowMs ?? 60_000;
    this.maxClients = options.maxClients ?? 50_000;
    if (!(this.limit >= 1 && this.windowMs >= 1 && this.maxClients >= 1)) throw new Error('Budget limit, window and client count must be positive.');
  }

  /** Whether `client` has a unit left at `now`, without spending it. */
  has(client: string, now: number): boolean {
    return this.tokens(this.key(client, now), now) >= 1;
  }

  /** Spends one unit of `client` at `now`; `false` (nothing spent) when none is left. */
  take(client: string, now: number): boolean {
    this.sweep(now, this.windowMs);
    const key = this.key(client, now);
    const tokens = this.tokens(key, now);
    if (tokens < 1) return false;
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    return true;
  }

  /** Whole seconds until `client` has a unit again (at least 1). */
  retryAfterSeconds(client: string, now: number): number {
    const missing = 1 - this.tokens(this.key(client, now), now);
    return Math.max(1, Math.ceil((missing * this.windowMs) / this.limit / 1000));
  }

  private tokens(key: string, now: number): number {
    const bucket = this.buckets.get(key);
    if (!bucket) return this.limit;
    return Math.min(this.limit, bucket.tokens + ((now - bucket.at) * this.limit) / this.windowMs);
  }

  private key(client: string, now: number): string {
    if (this.buckets.has(client) || this.buckets.size < this.maxClients) return client;
    this.sweep(now, 1_000); // full: make room, but walk the table at most once a second
    return this.buckets.size < this.maxClients ? client : OVERFLOW;
  }

  /** Forgets buckets that have refilled, if the last sweep is `interval` ms old. */
  private sweep(now: number, interval: number): void {
    if (now - this.lastSweep < interval) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.at) * this.limit) / this.windowMs >= this.limit) this.buckets.delete(key);
    }
  }
}
