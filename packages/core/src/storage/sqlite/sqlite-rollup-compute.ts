/**
 * Computes one day's rollup rows from its raw rows (the definitions of sqlite-queries.ts) in
 * bounded memory. One pass over the day's sessions and one over its events sum each table's
 * groups in maps; while the keys they hold stay under `memoryBytes` that is all. A day with
 * more distinct values than that (a day of unique, long URLs: what one client may send)
 * drops its largest map and lets SQLite sum that table instead (`GROUP BY`, which sorts on
 * disk past its cache), so a rebuild never holds a day's distinct values in memory at once.
 */
import type Database from 'better-sqlite3';
import { ATTRIBUTE_COLUMNS, DIMENSION_SQL, DIMENSION_VALUES, DIMENSIONS, type RollupDimension, type SessionAttributes } from './sqlite-live.js';

/** Default memory for the groups of one day's rebuild (keys and sums, estimated). */
export const REBUILD_MEMORY_BYTES = 32 * 1024 * 1024;

/** Estimated bytes of one group besides its key's characters (map entry, object, numbers). */
const GROUP_BYTES = 120;

/** Sums of one group, with the last visitor seen: rows come ordered by visitor, so a new one counts once. */
interface Group {
  lastVisitor: string | null;
  visitors: number;
  a: number;
  b: number;
  c: number;
}

/** The groups of one rollup table (or dimension), until the shared budget drops them (`dropped`). */
class Groups {
  readonly map = new Map<string, Group>();
  bytes = 0;
  dropped = false;
  constructor(private readonly budget: Budget) {}
  /** The group of `key`, or undefined once this table is left to SQL. */
  of(key: string): Group | undefined {
    if (this.dropped) return undefined;
    let g = this.map.get(key);
    if (!g) {
      this.map.set(key, (g = { lastVisitor: null, visitors: 0, a: 0, b: 0, c: 0 }));
      const bytes = key.length * 2 + GROUP_BYTES;
      this.bytes += bytes;
      this.budget.add(bytes);
    }
    return g;
  }
}

/** The memory of every `Groups` of a rebuild: past the limit the largest is dropped (and its table summed by SQL). */
class Budget {
  used = 0;
  readonly all: Groups[] = [];
  constructor(private readonly limit: number) {}
  groups(): Groups {
    const g = new Groups(this);
    this.all.push(g);
    return g;
  }
  add(bytes: number): void {
    this.used += bytes;
    while (this.used > this.limit) {
      const largest = this.all.filter((g) => !g.dropped).sort((x, y) => y.bytes - x.bytes)[0];
      if (!largest) return;
      largest.dropped = true;
      largest.map.clear();
      this.used -= largest.bytes;
    }
  }
}

const countVisitor = (g: Group | undefined, visitor: string) => {
  if (g && g.lastVisitor !== visitor) {
    g.lastVisitor = visitor;
    g.visitors++;
  }
};

/** The statements of `computeDay` on `db`, prepared once per store. */
export function createDayCompute(db: Database.Database, memoryBytes = REBUILD_MEMORY_BYTES) {
  const daySessions = db.prepare<[string, string], SessionAttributes & { visitor_id: string; duration: number; bounce: number }>(
    `SELECT visitor_id, end_ts - start_ts AS duration, pageviews = 1 AND custom_events = 0 AS bounce, ${ATTRIBUTE_COLUMNS}
     FROM sessions WHERE site_id = ? AND day = ? ORDER BY visitor_id`,
  );
  const dayEvents = db.prepare(
    'SELECT visitor_id, type, name, path, gap_ms FROM events WHERE site_id = ? AND ts >= ? AND ts < ? ORDER BY visitor_id',
  ).raw();
  const insertDay = db.prepare('INSERT INTO rollup_days VALUES (?, ?, ?, ?, ?, ?, ?)');
  const insertSessions = db.prepare('INSERT INTO rollup_sessions VALUES (?, ?, ?, ?, ?, ?, ?)');
  const insertPage = db.prepare('INSERT INTO rollup_pages VALUES (?, ?, ?, ?, ?, ?, ?)');
  const insertEvent = db.prepare('INSERT INTO rollup_events VALUES (?, ?, ?, ?)');
  // The same sums by SQLite, for a table whose groups did not fit.
  const sqlSessions = new Map(DIMENSIONS.map((d) => [d, db.prepare(
    `INSERT INTO rollup_sessions SELECT site_id, '${d}', day, ${DIMENSION_SQL[d]}, COUNT(DISTINCT visitor_id), COUNT(*),
       SUM(pageviews = 1 AND custom_events = 0) FROM sessions WHERE site_id = ? AND day = ? GROUP BY ${DIMENSION_SQL[d]}`,
  )]));
  const sqlPages = db.prepare(
    `INSERT INTO rollup_pages SELECT site_id, ?, path, COUNT(*), COUNT(DISTINCT visitor_id), COUNT(gap_ms), COALESCE(SUM(gap_ms), 0)
     FROM events WHERE site_id = ? AND ts >= ? AND ts < ? AND type = 0 GROUP BY path`,
  );
  const sqlEvents = db.prepare('INSERT INTO rollup_events SELECT site_id, ?, name, COUNT(*) FROM events WHERE site_id = ? AND ts >= ? AND ts < ? AND type = 1 GROUP BY name');

  /** Writes the rollup rows of `day` (`[start, end)` in ms); call in a write transaction, with none of the day's rows there. */
  return function computeDay(siteId: string, day: string, start: number, end: number): void {
    const budget = new Budget(memoryBytes);
    const total = { lastVisitor: null as string | null, visitors: 0, a: 0, b: 0, c: 0 };
    const byDimension = new Map<RollupDimension, Groups>(DIMENSIONS.map((d) => [d, budget.groups()]));
    for (const row of daySessions.iterate(siteId, day)) {
      countVisitor(total, row.visitor_id);
      total.a++;
      total.b += row.bounce;
      total.c += row.duration;
      for (const dimension of DIMENSIONS) {
        const g = byDimension.get(dimension)!.of(DIMENSION_VALUES[dimension](row));
        if (!g) continue;
        countVisitor(g, row.visitor_id);
        g.a++;
        g.b += row.bounce;
      }
    }
    const pages = budget.groups();
    const events = budget.groups();
    let pageviews = 0;
    for (const [visitor, type, name, path, gap] of dayEvents.iterate(siteId, start, end) as IterableIterator<[string, number, string, string, number | null]>) {
      if (type === 1) {
        const g = events.of(name);
        if (g) g.a++;
        continue;
      }
      pageviews++;
      const g = pages.of(path);
      if (!g) continue;
      countVisitor(g, visitor);
      g.a++;
      if (gap !== null) {
        g.b++;
        g.c += gap;
      }
    }
    if (total.a > 0 || pageviews > 0) insertDay.run(siteId, day, total.visitors, total.a, total.b, total.c, pageviews);
    for (const [dimension, groups] of byDimension) {
      if (groups.dropped) sqlSessions.get(dimension)!.run(siteId, day);
      else for (const [value, g] of groups.map) insertSessions.run(siteId, dimension, day, value, g.visitors, g.a, g.b);
    }
    if (pages.dropped) sqlPages.run(day, siteId, start, end);
    else for (const [path, g] of pages.map) insertPage.run(siteId, day, path, g.a, g.visitors, g.b, g.c);
    if (events.dropped) sqlEvents.run(day, siteId, start, end);
    else for (const [name, g] of events.map) insertEvent.run(siteId, day, name, g.a);
  };
}
