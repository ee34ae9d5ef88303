import type Database from 'better-sqlite3';
import type { TouchedDays } from './sqlite-writer.js';

/**
 * The version of each (site, day)'s raw rows (`day_versions`, migration 6): bumped
 * in the write transaction of every write that changes the day's events or
 * sessions (a late event into a clean day, a collector batch into the live day,
 * an import), whichever connection or process writes, so any reader of the file
 * sees in its own snapshot which days changed. Changes of rollup state alone
 * (a rebuild, a live day settling after midnight) leave the rows, and so the
 * version, as they were. The column cache of filtered reads keys its validity on it.
 */
export function createDayVersions(db: Database.Database) {
  const bump = db.prepare('INSERT INTO day_versions (site_id, day, version) VALUES (?, ?, 1) ON CONFLICT DO UPDATE SET version = version + 1');
  const between = db.prepare<[string, string, string], [string, number]>('SELECT day, version FROM day_versions WHERE site_id = ? AND day BETWEEN ? AND ?').raw();

  return {
    /** Bumps the version of each written day; call in the write's transaction. */
    bump(written: TouchedDays): void {
      for (const key of written) {
        const [siteId, day] = key.split('\u0000') as [string, string];
        bump.run(siteId, day);
      }
    },

    /** The versions of a site's days in `[from, to]` (a day without a row is at 0), in one query. */
    between(siteId: string, from: string, to: string): Map<string, number> {
      return new Map(between.all(siteId, from, to));
    },
  };
}

export type DayVersions = ReturnType<typeof createDayVersions>;
