/**
 * Reads the raw rows of one day's chunk (sqlite-columns.ts): the day's own
 * sessions and events, the foreign sessions of its events (started on other
 * days) and the events of its spanning sessions that lie outside the day.
 *
 * Rows come as one JSON array per query (`json_group_array`, in batches of
 * `BATCH` rows by key): SQLite writes it and `JSON.parse` reads it in well
 * under half the time better-sqlite3 takes to hand over the same rows one
 * array at a time (the per-row and per-column cost dominates a day's load;
 * docs/performance.md). Strings survive the round trip exactly (JSON escapes
 * every character that needs it, U+0000 included).
 */
import type Database from 'better-sqlite3';
import { dayStart, shiftDay } from '../../time/zone.js';
import { ATTRIBUTES } from './sqlite-columns.js';
import { SESSION_ATTRIBUTE_COLUMN } from '../selection.js';

/** Rows per query: a pause point of an incremental load (a few milliseconds of work), and one JSON text far under SQLite's and V8's string limits. */
const BATCH = 5_000;

/** An own session: id, visitor, start, end, bounce (0 or 1), then the attributes in `ATTRIBUTES` order. */
export type SessionRow = [string, string, number, number, number, ...string[]];
/** A foreign session: id, its day, start, end, then the attributes. */
export type ForeignRow = [string, string, number, number, ...string[]];
/** A custom event's properties as stored (`[key, value]` pairs), null for none. */
export type PropsCell = [string, string][] | null;
/** An event of the day: session, visitor, type (0 pageview), path or name, gap (null for none), timestamp, id, properties. */
export type EventRow = [string, string, number, string, number | null, number, number, PropsCell];

/** The rows of one day's chunk, read in one snapshot. */
export interface DayRows {
  day: string;
  /** Own sessions, grouped by visitor (the primary key's order). */
  own: SessionRow[];
  /** The day's events, in no particular order. */
  events: EventRow[];
  foreign: ForeignRow[];
  /** Events of the chunk's sessions on other days: session id, type, path or name, properties. */
  outside: [string, number, string, PropsCell][];
}

/**
 * The reader of `db` (`batch`: rows per query, for tests): `readDay(...)` is a
 * generator that pauses (`yield`) after each batch of rows, so an incremental load can let the event loop run there;
 * every pause must lie inside one read transaction for the rows to be one snapshot.
 */
export function createChunkReader(db: Database.Database, batch = BATCH) {
  const attributeColumns = ATTRIBUTES.map((a) => SESSION_ATTRIBUTE_COLUMN[a]).join(', ');
  const sessionsJson = (after: string) =>
    db.prepare(
      `SELECT json_group_array(json_array(session_id, visitor_id, start_ts, end_ts, pageviews = 1 AND custom_events = 0, ${attributeColumns})
         ORDER BY visitor_id, session_id)
       FROM (SELECT session_id, visitor_id, start_ts, end_ts, pageviews, custom_events, ${attributeColumns}
             FROM sessions WHERE site_id = ? AND day = ? ${after} ORDER BY visitor_id, session_id LIMIT ${batch})`,
    ).pluck();
  const ownFirst = sessionsJson('');
  const ownNext = sessionsJson('AND (visitor_id, session_id) > (?, ?)');
  // In time order (the primary key); the chunk groups them by visitor in memory (a SQL sort of the day costs more than the read).
  const eventsJson = (from: string) =>
    db.prepare(
      `SELECT json_group_array(json_array(session_id, visitor_id, type, CASE type WHEN 0 THEN path ELSE name END, gap_ms, ts, id, json(props)))
       FROM (SELECT session_id, visitor_id, type, name, path, gap_ms, ts, id, props FROM events WHERE site_id = ? AND ${from} AND ts < ? ORDER BY ts, id LIMIT ${batch})`,
    ).pluck();
  const eventsFirst = eventsJson('ts >= ?');
  const eventsNext = eventsJson('(ts, id) > (?, ?)');
  // json_each first, then one index lookup per id (with `session_id IN (SELECT value FROM json_each(?))`, SQLite walked all of the site's sessions).
  const foreignSessions = db.prepare(
    `SELECT s.session_id, s.day, s.start_ts, s.end_ts, ${ATTRIBUTES.map((a) => `s.${SESSION_ATTRIBUTE_COLUMN[a]}`).join(', ')}
     FROM json_each(?) AS j CROSS JOIN sessions AS s ON s.site_id = ? AND s.session_id = j.value`,
  ).raw();
  // Events are keyed by time, not session: a session's events lie within [start_ts, end_ts] of its row.
  const sessionEvents = db.prepare(
    `SELECT type, CASE type WHEN 0 THEN path ELSE name END, ts, props FROM events WHERE site_id = ? AND ts >= ? AND ts <= ? AND session_id = ?`,
  ).raw();

  return function* readDay(siteId: string, day: string, timezone: string): Generator<void, DayRows> {
    const start = dayStart(day, timezone);
    const end = dayStart(shiftDay(day, 1), timezone);
    const own = JSON.parse(ownFirst.get(siteId, day) as string) as SessionRow[];
    for (let rows = own; rows.length === batch; ) {
      yield;
      const last = rows[rows.length - 1]!;
      rows = JSON.parse(ownNext.get(siteId, day, last[1], last[0]) as string) as SessionRow[];
      for (const row of rows) own.push(row);
    }
    yield;
    const events = JSON.parse(eventsFirst.get(siteId, start, end) as string) as EventRow[];
    for (let rows = events; rows.length === batch; ) {
      yield;
      // Within a batch in no particular order: the last key is the largest.
      let last = rows[0]!;
      for (const row of rows) if (row[5] > last[5] || (row[5] === last[5] && row[6] > last[6])) last = row;
      rows = JSON.parse(eventsNext.get(siteId, last[5], last[6], end) as string) as EventRow[];
      for (const row of rows) events.push(row);
    }
    yield;
    const ownIds = new Set<string>();
    /** Sessions with events on other days: id, first and last event time. */
    const spanning: [string, number, number][] = [];
    for (const row of own) {
      ownIds.add(row[0]);
      if (row[3] >= end) spanning.push([row[0], row[2], row[3]]);
    }
    const foreignIds = new Set<string>();
    for (const e of events) if (!ownIds.has(e[0])) foreignIds.add(e[0]);
    const foreign = foreignIds.size === 0 ? [] : (foreignSessions.all(JSON.stringify([...foreignIds]), siteId) as ForeignRow[]);
    for (const row of foreign) spanning.push([row[0], row[2], row[3]]);
    const outside: [string, number, string, PropsCell][] = [];
    for (const [sessionId, first, last] of spanning) {
      for (const [type, text, ts, props] of sessionEvents.all(siteId, first, last, sessionId) as [number, string, number, string | null][]) {
        if (ts < start || ts >= end) outside.push([sessionId, type, text, props === null ? null : (JSON.parse(props) as [string, string][])]);
      }
    }
    return { day, own, events, foreign, outside };
  };
}

export type ChunkReader = ReturnType<typeof createChunkReader>;
