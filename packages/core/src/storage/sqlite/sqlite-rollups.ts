import type Database from 'better-sqlite3';
import { dayStart, shiftDay } from '../../time/zone.js';
import { createDayCompute } from './sqlite-rollup-compute.js';
import type { TouchedDays } from './sqlite-writer.js';

const ROLLUP_TABLES = ['rollup_days', 'rollup_sessions', 'rollup_pages', 'rollup_events'];

/**
 * The state of each (site, day) for the rollup tables of migration 3:
 * - clean: rollup rows complete (a day without data is clean and has none);
 * - dirty: a write touched it (its rollup rows were deleted then); read raw until `rebuild`;
 * - live: rebuilt while hot (today), rollup rows kept current by small writes (sqlite-live.ts).
 * Every change of state bumps the site's generation, so sums over clean days can be kept.
 * A rebuild computes a day's rows in at most `memoryBytes` (sqlite-rollup-compute.ts).
 */
export function createRollups(db: Database.Database, memoryBytes?: number) {
  const markDirty = db.prepare('INSERT INTO dirty_days (site_id, day) VALUES (?, ?) ON CONFLICT DO NOTHING');
  const clearDirty = db.prepare('DELETE FROM dirty_days WHERE site_id = ? AND day = ?');
  const isDirty = db.prepare('SELECT 1 FROM dirty_days WHERE site_id = ? AND day = ?').pluck();
  const dirtyIn = db.prepare<[string, string, string], string>('SELECT day FROM dirty_days WHERE site_id = ? AND day BETWEEN ? AND ? ORDER BY day').pluck();
  const liveIn = db.prepare<[string, string, string], string>('SELECT day FROM live_days WHERE site_id = ? AND day BETWEEN ? AND ? ORDER BY day').pluck();
  const setLive = db.prepare('INSERT INTO live_days (site_id, day) VALUES (?, ?)');
  const endLive = db.prepare('DELETE FROM live_days WHERE site_id = ? AND day = ?');
  const dropVisitors = db.prepare('DELETE FROM live_page_visitors WHERE site_id = ? AND day = ?');
  const addVisitors = db.prepare(
    `INSERT INTO live_page_visitors SELECT DISTINCT site_id, ?, path, visitor_id FROM events
     WHERE site_id = ? AND ts >= ? AND ts < ? AND type = 0`,
  );
  const bump = db.prepare(
    'INSERT INTO rollup_generations (site_id, generation) VALUES (?, 1) ON CONFLICT DO UPDATE SET generation = generation + 1',
  );
  const generationOf = db.prepare<[string], number>('SELECT generation FROM rollup_generations WHERE site_id = ?').pluck();
  const deletes = ROLLUP_TABLES.map((table) => db.prepare(`DELETE FROM ${table} WHERE site_id = ? AND day = ?`));
  const compute = createDayCompute(db, memoryBytes);

  /** Ends a day's live state (its rollup rows stay); returns whether it was live. */
  const stopLive = (siteId: string, day: string): boolean => {
    if (endLive.run(siteId, day).changes === 0) return false;
    dropVisitors.run(siteId, day);
    return true;
  };

  return {
    /** Marks the touched days dirty: a clean or live day loses its rollup rows now, in the same transaction. */
    markDirty(touched: TouchedDays): void {
      for (const key of touched) {
        const [siteId, day] = key.split('\u0000') as [string, string];
        if (markDirty.run(siteId, day).changes === 0) continue;
        stopLive(siteId, day);
        for (const d of deletes) d.run(siteId, day);
        bump.run(siteId);
      }
    },

    dirtyDays: (siteId: string, from: string, to: string): string[] => dirtyIn.all(siteId, from, to),
    liveDays: (siteId: string, from: string, to: string): string[] => liveIn.all(siteId, from, to),

    /** Rebuilds a dirty day's rollup rows, as a live day when `live`. Call in a write transaction. */
    rebuild(siteId: string, day: string, timezone: string, live: boolean): void {
      if (!isDirty.get(siteId, day)) return;
      const start = dayStart(day, timezone);
      const end = dayStart(shiftDay(day, 1), timezone);
      compute(siteId, day, start, end);
      if (live) {
        setLive.run(siteId, day);
        addVisitors.run(day, siteId, start, end);
      }
      clearDirty.run(siteId, day);
      bump.run(siteId);
    },

    /** A live day that is no longer hot becomes clean. */
    settle(siteId: string, day: string): void {
      if (stopLive(siteId, day)) bump.run(siteId);
    },

    /** Changes whenever the rollup rows of the site's clean days do (0 before any). */
    generation: (siteId: string): number => generationOf.get(siteId) ?? 0,
  };
}

export type Rollups = ReturnType<typeof createRollups>;
