/**
 * Daily salts of the visitor id (decisions.md section 2). A visitor id is a keyed hash of
 * (salt of the day, site, IP, user agent); once a day's salt is deleted, nobody (this
 * server included) can link that day's ids back to an IP, and the same person gets a new
 * id the next day. All processes of one installation must agree on the salt of a day, so
 * production uses a store kept in the database; the memory store below serves one process
 * (and tests).
 */
import { randomBytes } from 'node:crypto';

/** Where the salts of the days live. Implementations create a day's salt on first use. */
export interface SaltStore {
  /**
   * The salt of local day `day` (`YYYY-MM-DD`), created (32 random bytes) if the day has
   * none yet. Every caller, in every process, must get the same salt for the same day.
   */
  saltFor(day: string): Promise<string>;
}

/** How long after the start of its day (UTC midnight) a salt is kept: 48 hours. */
export const SALT_RETENTION_MS = 48 * 3_600_000;

/**
 * The instant after which the salt of `day` is deleted. Local days run from UTC+14 to
 * UTC-12, so some time zone is still in day D until D+1 12:00 UTC; 48 hours after D's
 * UTC midnight is past that, and salts are keyed by the site-local day.
 * @example saltExpiresAt('2026-11-01') // Date.parse('2026-11-03T00:00:00Z')
 */
export function saltExpiresAt(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) + SALT_RETENTION_MS;
}

/**
 * A fresh salt: 32 bytes from the CSPRNG, base64url.
 * @example const salt = newSalt(); // 43 characters
 */
export function newSalt(): string {
  return randomBytes(32).toString('base64url');
}

/** The memory store, with a look at which days it holds (tests, diagnostics). */
export interface MemorySaltStore extends SaltStore {
  /** Days that have a salt right now, ascending. */
  days(): string[];
}

/**
 * Salts in this process's memory: rotated daily, deleted 48 h after their day began.
 * A restart forgets them (everyone becomes a new visitor for the rest of the day), and
 * several processes would each have their own: use a database-backed store for those.
 *
 * @example
 * const salts = createMemorySaltStore();
 * const salt = await salts.saltFor('2026-11-01');
 */
export function createMemorySaltStore(options: { now?: () => number } = {}): MemorySaltStore {
  const now = options.now ?? Date.now;
  const salts = new Map<string, { salt: string; expiresAt: number }>();
  // Checked on every call (a handful of entries): an expired salt is never handed out again.
  const prune = () => {
    const t = now();
    for (const [day, entry] of salts) if (t >= entry.expiresAt) salts.delete(day);
  };
  return {
    async saltFor(day) {
      prune();
      let entry = salts.get(day);
      if (entry === undefined) salts.set(day, (entry = { salt: newSalt(), expiresAt: saltExpiresAt(day) }));
      return entry.salt;
    },
    days() {
      prune();
      return [...salts.keys()].sort();
    },
  };
}
