import type Database from 'better-sqlite3';
import { SESSION_ATTRIBUTE_COLUMN, type SessionAttributeColumns } from '../selection.js';

/** The attributes of a session that rollups group by, as `sessions` stores them. */
export type SessionAttributes = SessionAttributeColumns;

/** The `sessions` columns of `SessionAttributes`, for SELECTs. */
export const ATTRIBUTE_COLUMNS = Object.values(SESSION_ATTRIBUTE_COLUMN).join(', ');

/** Each `rollup_sessions` dimension's value from a session's attributes (the same for rebuilds and deltas). */
export const DIMENSION_VALUES = {
  referrerSource: (s: SessionAttributes) => s.referrer_source,
  channel: (s: SessionAttributes) => s.channel,
  countryCode: (s: SessionAttributes) => s.country_code,
  deviceType: (s: SessionAttributes) => s.device_type,
  browser: (s: SessionAttributes) => s.browser,
  os: (s: SessionAttributes) => s.os,
  utm: (s: SessionAttributes) => `${s.utm_source}\u0000${s.utm_medium}\u0000${s.utm_campaign}`,
  entryPath: (s: SessionAttributes) => s.entry_path,
} as const;
export type RollupDimension = keyof typeof DIMENSION_VALUES;
/** The same values as SQL over `sessions` (a rebuild too large for memory groups by them in SQLite). */
export const DIMENSION_SQL: Record<RollupDimension, string> = {
  referrerSource: 'referrer_source',
  channel: 'channel',
  countryCode: 'country_code',
  deviceType: 'device_type',
  browser: 'browser',
  os: 'os',
  utm: "utm_source || char(0) || utm_medium || char(0) || utm_campaign",
  entryPath: 'entry_path',
};
export const DIMENSIONS = Object.keys(DIMENSION_VALUES) as RollupDimension[];

type Row = (string | number)[];

/** Deltas summed per rollup row during one write, applied once per row by `flush`. */
class Pending {
  private readonly rows = new Map<string, Row>();
  constructor(private readonly keys: number) {}
  /** Adds `deltas` to the row of `key` (the leading key columns). */
  add(key: readonly string[], ...deltas: number[]): void {
    const id = key.join('\u0000');
    const row = this.rows.get(id);
    if (!row) this.rows.set(id, [...key, ...deltas]);
    else for (let i = 0; i < deltas.length; i++) (row[this.keys + i] as number) += deltas[i]!;
  }
  clear(): void {
    this.rows.clear();
  }
  drain(apply: (row: Row) => void): void {
    for (const row of this.rows.values()) apply(row);
    this.rows.clear();
  }
}

/**
 * Small writes to a live day (sqlite-rollups.ts) applied to its rollup rows
 * as deltas, so the day never has to be read raw. A visitor is new for a
 * session group when none of their other sessions that day has the same value
 * (sessions are clustered by day and visitor, so that is one short range); new
 * for a page when `live_page_visitors` did not have them yet. Deltas are summed
 * in memory and written once per row by `flush`, at the end of the write.
 */
export function createLiveDeltas(db: Database.Database) {
  const isLive = db.prepare('SELECT 1 FROM live_days WHERE site_id = ? AND day = ?').pluck();
  const otherSessions = db.prepare<[string, string, string, string], SessionAttributes>(
    `SELECT ${ATTRIBUTE_COLUMNS} FROM sessions WHERE site_id = ? AND day = ? AND visitor_id = ? AND session_id <> ?`,
  );
  const pageVisitor = db.prepare('INSERT INTO live_page_visitors VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING');
  const upsertDays = db.prepare(
    `INSERT INTO rollup_days VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET visitors = visitors + excluded.visitors,
       sessions = sessions + excluded.sessions, bounces = bounces + excluded.bounces,
       duration_ms = duration_ms + excluded.duration_ms, pageviews = pageviews + excluded.pageviews`,
  );
  const upsertSessions = db.prepare(
    `INSERT INTO rollup_sessions VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET visitors = visitors + excluded.visitors,
       sessions = sessions + excluded.sessions, bounces = bounces + excluded.bounces`,
  );
  const upsertPages = db.prepare(
    `INSERT INTO rollup_pages VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET pageviews = pageviews + excluded.pageviews,
       visitors = visitors + excluded.visitors, timed_views = timed_views + excluded.timed_views,
       time_on_page_ms = time_on_page_ms + excluded.time_on_page_ms`,
  );
  const upsertEvents = db.prepare('INSERT INTO rollup_events VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET count = count + excluded.count');
  // Columns after the key: days (visitors, sessions, bounces, duration, pageviews), sessions (visitors, sessions, bounces),
  // pages (pageviews, visitors, timed views, time on page), events (count).
  const days = new Pending(2);
  const sessions = new Pending(4);
  const pages = new Pending(3);
  const events = new Pending(3);

  return {
    isLive: (siteId: string, day: string): boolean => isLive.get(siteId, day) !== undefined,

    /** A new session of `day` (its row already stored). */
    session(siteId: string, day: string, visitorId: string, sessionId: string, s: SessionAttributes, bounce: number, durationMs: number) {
      const others = otherSessions.all(siteId, day, visitorId, sessionId);
      days.add([siteId, day], others.length === 0 ? 1 : 0, 1, bounce, durationMs, 0);
      for (const dimension of DIMENSIONS) {
        const value = DIMENSION_VALUES[dimension];
        const own = value(s);
        sessions.add([siteId, dimension, day, own], others.some((o) => value(o) === own) ? 0 : 1, 1, bounce);
      }
    },

    /** A stored session of `day` got later events: longer, and maybe no longer a bounce. */
    extend(siteId: string, day: string, s: SessionAttributes, bounceDelta: number, durationDelta: number) {
      days.add([siteId, day], 0, 0, bounceDelta, durationDelta, 0);
      if (bounceDelta !== 0) {
        for (const dimension of DIMENSIONS) sessions.add([siteId, dimension, day, DIMENSION_VALUES[dimension](s)], 0, 0, bounceDelta);
      }
    },

    /** A pageview of `day`, with its time on page when another event follows. */
    pageview(siteId: string, day: string, path: string, visitorId: string, gap: number | null) {
      const newVisitor = pageVisitor.run(siteId, day, path, visitorId).changes;
      days.add([siteId, day], 0, 0, 0, 0, 1);
      pages.add([siteId, day, path], 1, newVisitor, gap === null ? 0 : 1, gap ?? 0);
    },

    /** A stored pageview of `day` got its next event, `gap` ms later. */
    gap(siteId: string, day: string, path: string, gap: number) {
      pages.add([siteId, day, path], 0, 0, 1, gap);
    },

    event(siteId: string, day: string, name: string) {
      events.add([siteId, day, name], 1);
    },

    /** Drops deltas not written (those of a write that failed: its transaction was rolled back); call before each write. */
    discard() {
      for (const pending of [days, sessions, pages, events]) pending.clear();
    },

    /** Writes the summed deltas; call at the end of each write, in its transaction. */
    flush() {
      days.drain((row) => upsertDays.run(row));
      sessions.drain((row) => upsertSessions.run(row));
      pages.drain((row) => upsertPages.run(row));
      events.drain((row) => upsertEvents.run(row));
    },
  };
}

export type LiveDeltas = ReturnType<typeof createLiveDeltas>;
