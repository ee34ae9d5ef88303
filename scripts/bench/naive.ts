/**
 * The naive baseline of the bench: each endpoint answered by a plain scan of
 * the raw tables (events and the per-session rows), with COUNT(DISTINCT ...)
 * and GROUP BY over the whole range, exactly as the SQLite store did before
 * it kept rollups. Same definitions, so its JSON must equal the store's; the
 * bench checks that and reports the speed ratio. Filtered reads (a `Selection`)
 * and hour buckets are the raw SQL definition of the core
 * (sqlite-selection-raw.ts: plain scans with the core's reference predicate
 * `allHold` as a SQL function), as are `/properties` and goal totals.
 */
import type Database from 'better-sqlite3';
import { createRawSelectionReads } from '../../packages/core/src/storage/sqlite/sqlite-selection-raw.js';
import type {
  BreakdownTotals, DayRange, DayTotals, EventTotals, PageTotals, SessionDimension, Storage, SummaryTotals,
} from '../../packages/core/src/storage/types.js';

const COLUMNS: Record<SessionDimension, string> = {
  referrerSource: 'referrer_source',
  channel: 'channel',
  countryCode: 'country_code',
  deviceType: 'device_type',
  browser: 'browser',
  os: 'os',
  utm: "utm_source || char(0) || utm_medium || char(0) || utm_campaign",
};
const SESSIONS = 'FROM sessions WHERE site_id = ? AND day BETWEEN ? AND ?';
const EVENTS = 'FROM events WHERE site_id = ? AND ts >= ? AND ts < ?';
const BOUNCE = 'CASE WHEN pageviews = 1 AND custom_events = 0 THEN 1 ELSE 0 END';

/** `base` with every aggregate read replaced by a raw scan over `db`. */
export function naiveStorage(base: Storage, db: Database.Database): Storage {
  const s = (r: DayRange) => [r.siteId, r.from, r.to];
  const e = (r: DayRange) => [r.siteId, r.startMs, r.endMs];
  const totals = db.prepare(
    `SELECT COUNT(*) AS sessions, COALESCE(SUM(${BOUNCE}), 0) AS bounces, COALESCE(SUM(end_ts - start_ts), 0) AS durationMs,
       COUNT(DISTINCT day || visitor_id) AS visitors ${SESSIONS}`,
  );
  const pageviews = db.prepare(`SELECT COUNT(*) AS pageviews ${EVENTS} AND type = 0`);
  const sessionDays = db.prepare(`SELECT day, COUNT(*) AS sessions, COUNT(DISTINCT visitor_id) AS visitors ${SESSIONS} GROUP BY day`);
  const pageviewDays = db.prepare(`SELECT day, COUNT(*) AS pageviews ${EVENTS} AND type = 0 GROUP BY day`);
  const breakdown = Object.fromEntries(
    Object.entries(COLUMNS).map(([dim, col]) => [
      dim,
      db.prepare(`SELECT ${col} AS value, COUNT(*) AS sessions, COUNT(DISTINCT day || visitor_id) AS visitors ${SESSIONS} GROUP BY value`),
    ]),
  ) as Record<SessionDimension, Database.Statement>;
  const pageViews = db.prepare(
    `SELECT path, COUNT(*) AS pageviews, COUNT(DISTINCT day || visitor_id) AS visitors, COUNT(gap_ms) AS timedViews,
       COALESCE(SUM(gap_ms), 0) AS timeOnPageMs ${EVENTS} AND type = 0 GROUP BY path`,
  );
  const entries = db.prepare(`SELECT entry_path AS path, COUNT(*) AS sessions, SUM(${BOUNCE}) AS bounces ${SESSIONS} GROUP BY entry_path`);
  const events = db.prepare(`SELECT name, COUNT(*) AS count ${EVENTS} AND type = 1 GROUP BY name`);
  const event = db.prepare(`SELECT name, COUNT(*) AS count ${EVENTS} AND type = 1 AND name = ? GROUP BY name`);

  const filtered = createRawSelectionReads(db);

  return {
    ...base,
    kind: 'naive',
    hourBuckets: async (r, starts, selection) => filtered.hourBuckets(r, starts, selection),
    // No rollup holds properties, goals or funnels: the raw definition answers them, filtered or not.
    properties: async (r, name, property, selection) => filtered.properties(r, name, property, selection),
    goalTotals: async (r, goals, selection) => filtered.goalTotals(r, goals, selection),
    funnelVisitors: async (r, steps, selection) => filtered.funnelVisitors(r, steps, selection),
    async summary(r, selection) {
      if (selection) return filtered.summary(r, selection);
      return { ...(totals.get(...s(r)) as Omit<SummaryTotals, 'pageviews'>), ...(pageviews.get(...e(r)) as { pageviews: number }) };
    },
    async timeseries(r, selection) {
      if (selection) return filtered.timeseries(r, selection);
      const days = new Map<string, DayTotals>();
      for (const row of sessionDays.all(...s(r)) as DayTotals[]) days.set(row.day, { ...row, pageviews: 0 });
      for (const row of pageviewDays.all(...e(r)) as DayTotals[]) {
        days.set(row.day, { day: row.day, visitors: 0, sessions: 0, ...days.get(row.day), pageviews: row.pageviews });
      }
      return [...days.values()];
    },
    async sessionBreakdown(r, dim, selection) {
      if (selection) return filtered.sessionBreakdown(r, dim, selection);
      return (breakdown[dim].all(...s(r)) as { value: string; visitors: number; sessions: number }[]).map(
        ({ value, visitors, sessions }): BreakdownTotals => ({ key: dim === 'utm' ? value.split('\u0000') : [value], visitors, sessions }),
      );
    },
    async pages(r, selection) {
      if (selection) return filtered.pages(r, selection);
      const pages = new Map<string, PageTotals>();
      for (const row of pageViews.all(...e(r)) as PageTotals[]) pages.set(row.path, { ...row, entrySessions: 0, entryBounces: 0 });
      for (const row of entries.all(...s(r)) as { path: string; sessions: number; bounces: number }[]) {
        const page = pages.get(row.path);
        if (page) Object.assign(page, { entrySessions: row.sessions, entryBounces: row.bounces });
      }
      return [...pages.values()];
    },
    async customEvents(r, name, selection) {
      if (selection) return filtered.customEvents(r, name, selection);
      return (name === undefined ? events.all(...e(r)) : event.all(...e(r), name)) as EventTotals[];
    },
  };
}
