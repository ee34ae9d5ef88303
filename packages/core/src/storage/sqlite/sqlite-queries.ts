import type Database from 'better-sqlite3';
import type { BreakdownTotals, DayRange, DayTotals, EventTotals, PageTotals, SessionDimension, SummaryTotals } from '../types.js';

/** Column(s) of `sessions` for each breakdown dimension: a fixed map, never user input. */
const DIMENSION_COLUMNS: Record<SessionDimension, string[]> = {
  referrerSource: ['referrer_source'],
  channel: ['channel'],
  countryCode: ['country_code'],
  deviceType: ['device_type'],
  browser: ['browser'],
  os: ['os'],
  utm: ['utm_source', 'utm_medium', 'utm_campaign'],
};

const SESSIONS_IN_RANGE = 'FROM sessions WHERE site_id = ? AND day BETWEEN ? AND ?';
const EVENTS_IN_RANGE = 'FROM events WHERE site_id = ? AND ts >= ? AND ts < ?';
const BOUNCE = 'CASE WHEN pageviews = 1 AND custom_events = 0 THEN 1 ELSE 0 END';

/** The aggregate reads of a range, whether from raw rows or rollups; values are bound parameters. */
export interface Aggregates {
  summary(range: DayRange): SummaryTotals;
  timeseries(range: DayRange): DayTotals[];
  sessionBreakdown(range: DayRange, dimension: SessionDimension): BreakdownTotals[];
  pages(range: DayRange): PageTotals[];
  customEvents(range: DayRange, name?: string): EventTotals[];
}

/**
 * The reads over raw rows: sessions by their day, events by their instant.
 * The store uses them for dirty days only (see `sqlite-reads.ts`).
 */
export function createQueries(db: Database.Database): Aggregates & { liveVisitors(siteId: string, sinceMs: number, untilMs: number): number } {
  const sessionArgs = (r: DayRange) => [r.siteId, r.from, r.to] as const;
  const eventArgs = (r: DayRange) => [r.siteId, r.startMs, r.endMs] as const;

  const sessionTotals = db.prepare(
    `SELECT COUNT(*) AS sessions, COALESCE(SUM(${BOUNCE}), 0) AS bounces,
       COALESCE(SUM(end_ts - start_ts), 0) AS durationMs,
       (SELECT COUNT(*) FROM (SELECT DISTINCT day, visitor_id ${SESSIONS_IN_RANGE})) AS visitors
     ${SESSIONS_IN_RANGE}`,
  );
  const pageviewTotal = db.prepare(`SELECT COUNT(*) AS pageviews ${EVENTS_IN_RANGE} AND type = 0`);
  const sessionDays = db.prepare(
    `SELECT day, COUNT(*) AS sessions, COUNT(DISTINCT visitor_id) AS visitors ${SESSIONS_IN_RANGE} GROUP BY day`,
  );
  const pageviewDays = db.prepare(`SELECT day, COUNT(*) AS pageviews ${EVENTS_IN_RANGE} AND type = 0 GROUP BY day`);
  const breakdowns = new Map(
    Object.entries(DIMENSION_COLUMNS).map(([dimension, columns]) => {
      const cols = columns.join(', ');
      return [
        dimension,
        db.prepare(
          `SELECT ${cols}, COUNT(*) AS sessions, COUNT(DISTINCT day || visitor_id) AS visitors
           ${SESSIONS_IN_RANGE} GROUP BY ${cols}`,
        ),
      ];
    }),
  );
  const pageViews = db.prepare(
    `SELECT path, COUNT(*) AS pageviews, COUNT(DISTINCT day || visitor_id) AS visitors,
       COUNT(gap_ms) AS timedViews, COALESCE(SUM(gap_ms), 0) AS timeOnPageMs
     ${EVENTS_IN_RANGE} AND type = 0 GROUP BY path`,
  );
  const pageEntries = db.prepare(
    `SELECT entry_path AS path, COUNT(*) AS entrySessions, SUM(${BOUNCE}) AS entryBounces
     ${SESSIONS_IN_RANGE} GROUP BY entry_path`,
  );
  const eventCounts = db.prepare(`SELECT name, COUNT(*) AS count ${EVENTS_IN_RANGE} AND type = 1 GROUP BY name`);
  const eventCount = db.prepare(`SELECT name, COUNT(*) AS count ${EVENTS_IN_RANGE} AND type = 1 AND name = ? GROUP BY name`);
  const live = db.prepare(
    'SELECT COUNT(DISTINCT visitor_id) AS live FROM events WHERE site_id = ? AND ts > ? AND ts <= ? AND type = 0',
  );

  return {
    summary(range: DayRange): SummaryTotals {
      const totals = sessionTotals.get(...sessionArgs(range), ...sessionArgs(range)) as Omit<SummaryTotals, 'pageviews'>;
      const { pageviews } = pageviewTotal.get(...eventArgs(range)) as { pageviews: number };
      return { ...totals, pageviews };
    },

    timeseries(range: DayRange): DayTotals[] {
      const days = new Map<string, DayTotals>();
      for (const row of sessionDays.all(...sessionArgs(range)) as Omit<DayTotals, 'pageviews'>[]) {
        days.set(row.day, { ...row, pageviews: 0 });
      }
      for (const { day, pageviews } of pageviewDays.all(...eventArgs(range)) as { day: string; pageviews: number }[]) {
        const row = days.get(day);
        if (row) row.pageviews = pageviews;
        else days.set(day, { day, visitors: 0, sessions: 0, pageviews });
      }
      return [...days.values()];
    },

    sessionBreakdown(range: DayRange, dimension: SessionDimension): BreakdownTotals[] {
      const columns = DIMENSION_COLUMNS[dimension];
      const rows = breakdowns.get(dimension)!.all(...sessionArgs(range)) as Record<string, string | number>[];
      return rows.map((row) => ({
        key: columns.map((c) => row[c] as string),
        visitors: row.visitors as number,
        sessions: row.sessions as number,
      }));
    },

    /** Every path viewed or entered in the range; entry-only paths have 0 pageviews (the core drops them). */
    pages(range: DayRange): PageTotals[] {
      const pages = new Map<string, PageTotals>();
      for (const row of pageViews.all(...eventArgs(range)) as Omit<PageTotals, 'entrySessions' | 'entryBounces'>[]) {
        pages.set(row.path, { ...row, entrySessions: 0, entryBounces: 0 });
      }
      for (const row of pageEntries.all(...sessionArgs(range)) as { path: string; entrySessions: number; entryBounces: number }[]) {
        const page = pages.get(row.path);
        if (page) Object.assign(page, { entrySessions: row.entrySessions, entryBounces: row.entryBounces });
        else pages.set(row.path, { pageviews: 0, visitors: 0, timedViews: 0, timeOnPageMs: 0, ...row });
      }
      return [...pages.values()];
    },

    customEvents(range: DayRange, name?: string): EventTotals[] {
      return (name === undefined ? eventCounts.all(...eventArgs(range)) : eventCount.all(...eventArgs(range), name)) as EventTotals[];
    },

    liveVisitors(siteId: string, sinceMs: number, untilMs: number): number {
      return (live.get(siteId, sinceMs, untilMs) as { live: number }).live;
    },
  };
}

const ROLLUP_DAYS = 'FROM rollup_days WHERE site_id = ? AND day BETWEEN ? AND ?';

/**
 * The same reads over the per-day rollups of `sqlite-rollups.ts`: sums of
 * day rows, which hold only clean days (a dirty day has no rollup rows).
 */
export function createRollupQueries(db: Database.Database): Aggregates {
  const args = (r: DayRange) => [r.siteId, r.from, r.to] as const;
  const totals = db.prepare(
    `SELECT COALESCE(SUM(visitors), 0) AS visitors, COALESCE(SUM(sessions), 0) AS sessions, COALESCE(SUM(bounces), 0) AS bounces,
       COALESCE(SUM(duration_ms), 0) AS durationMs, COALESCE(SUM(pageviews), 0) AS pageviews ${ROLLUP_DAYS}`,
  );
  const days = db.prepare(`SELECT day, visitors, sessions, pageviews ${ROLLUP_DAYS}`);
  const sessions = db.prepare(
    `SELECT value, SUM(visitors), SUM(sessions), SUM(bounces) FROM rollup_sessions
     WHERE site_id = ? AND dimension = ? AND day BETWEEN ? AND ? GROUP BY value`,
  ).raw();
  const pageRows = db.prepare(
    `SELECT path, SUM(pageviews), SUM(visitors), SUM(timed_views), SUM(time_on_page_ms) FROM rollup_pages
     WHERE site_id = ? AND day BETWEEN ? AND ? GROUP BY path`,
  ).raw();
  const eventCounts = db.prepare('SELECT name, SUM(count) AS count FROM rollup_events WHERE site_id = ? AND day BETWEEN ? AND ? GROUP BY name');
  const eventCount = db.prepare('SELECT name, SUM(count) AS count FROM rollup_events WHERE site_id = ? AND day BETWEEN ? AND ? AND name = ? GROUP BY name');
  const byValue = (r: DayRange, dimension: string) => sessions.all(r.siteId, dimension, r.from, r.to) as [string, number, number, number][];

  return {
    summary: (range) => totals.get(...args(range)) as SummaryTotals,
    timeseries: (range) => days.all(...args(range)) as DayTotals[],
    sessionBreakdown: (range, dimension) =>
      byValue(range, dimension).map(([value, visitors, sessions]) => ({
        key: dimension === 'utm' ? value.split('\u0000') : [value],
        visitors,
        sessions,
      })),
    pages(range) {
      const pages = new Map<string, PageTotals>();
      for (const [path, pageviews, visitors, timedViews, timeOnPageMs] of pageRows.all(...args(range)) as [string, number, number, number, number][]) {
        pages.set(path, { path, pageviews, visitors, timedViews, timeOnPageMs, entrySessions: 0, entryBounces: 0 });
      }
      for (const [path, , entrySessions, entryBounces] of byValue(range, 'entryPath')) {
        const page = pages.get(path);
        if (page) Object.assign(page, { entrySessions, entryBounces });
        else pages.set(path, { path, pageviews: 0, visitors: 0, timedViews: 0, timeOnPageMs: 0, entrySessions, entryBounces });
      }
      return [...pages.values()];
    },
    customEvents: (range, name) =>
      (name === undefined ? eventCounts.all(...args(range)) : eventCount.all(...args(range), name)) as EventTotals[],
  };
}
