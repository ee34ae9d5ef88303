import type Database from 'better-sqlite3';
import { newSalt, type SaltStore, saltExpiresAt } from '../../salts/salts.js';

/**
 * Daily salts in the SQLite database, so every process using the file and
 * every restart agree on a day's salt. A day's salt is created by the first
 * process that needs it (`INSERT ... ON CONFLICT DO NOTHING`, then read back)
 * and deleted 48 hours after its day began; each process caches the salts it
 * has read until they expire. The backend of `openSqliteBackend` wires it.
 */
export function createSqliteSaltStore(db: Database.Database, options: { now?: () => number } = {}): SaltStore {
  const now = options.now ?? Date.now;
  const purge = db.prepare('DELETE FROM salts WHERE expires_at <= ?');
  const insert = db.prepare('INSERT INTO salts (day, salt, expires_at) VALUES (?, ?, ?) ON CONFLICT (day) DO NOTHING');
  const read = db.prepare<[string], { salt: string }>('SELECT salt FROM salts WHERE day = ?');
  const cache = new Map<string, { salt: string; expiresAt: number }>();
  const saltFor = db.transaction((day: string, t: number): string => {
    purge.run(t);
    insert.run(day, newSalt(), saltExpiresAt(day));
    return read.get(day)!.salt;
  });

  return {
    async saltFor(day) {
      const t = now();
      const cached = cache.get(day);
      if (cached && t < cached.expiresAt) return cached.salt;
      for (const [d, entry] of cache) if (t >= entry.expiresAt) cache.delete(d);
      const salt = saltFor(day, t);
      cache.set(day, { salt, expiresAt: saltExpiresAt(day) });
      return salt;
    },
  };
}
