/**
 * Reads the raw rows of one day's chunk (sqlite-columns.ts): the day's own
 * sessions and events, the foreign sessions of its events (started on other
 * days) and the events of its spanning sessions that lie outside the day.
 *
 * Rows come as one JSON array per query (`json_group_array`, by key): SQLite
 * writes it and `JSON.parse` reads it in well under half the time better-sqlite3
 * takes to hand over the same rows one array at a time (the per-row and
 * per-column cost dominates a day's load; docs/performance.md). Strings survive
 * the round trip exactly (JSON escapes every character that needs it, U+0000
 * included). Each query asks for about `STEP_TEXT` of text (its row count follows
 * the size of the rows read so far), so a step of an incremental load is a few
 * milliseconds however long the day's URLs are. Each batch goes to a sink at once
 * (sqlite-chunk-builder.ts codes it), and a day whose rows pass the reader's
 * `maxText` is given up (`undefined`).
 */
import type Database from 'better-sqlite3';
import { dayStart, shiftDay } from '../../time/zone.js';
import { ATTRIBUTES, pacer } from './sqlite-columns.js';
import { SESSION_ATTRIBUTE_COLUMN } from '../selection.js';

/** JSON text per query: a pause point of an incremental load (a few milliseconds to make and parse). */
const STEP_TEXT = 500_000;
/** Rows of a kind's first query, and the most of any query (the next ones aim at `STEP_TEXT`). */
const FIRST_ROWS = 1_000;
const MAX_ROWS = 5_000;

/** An own session: id, visitor, start, end, bounce (0 or 1), then the attributes in `ATTRIBUTES` order. */
export type SessionRow = [string, string, number, number, number, ...string[]];
/** A foreign session: id, its day, start, end, then the attributes. */
export type ForeignRow = [string, string, number, number, ...string[]];
/** A custom event's properties as stored (`[key, value]` pairs), null for none. */
export type PropsCell = [string, string][] | null;
/** An event of the day: session, visitor, type (0 pageview), path or name, gap (null for none), timestamp, id, properties, seq. */
export type EventRow = [string, string, number, string, number | null, number, number, PropsCell, number];
/** An event of a chunk's session on another day: session id, type, path or name, properties, timestamp, id, seq. */
export type OutsideRow = [string, number, string, PropsCell, number, number, number];

/** Where a read puts a day's rows, a query's batch at a time (a chunk builder, or `collectRows`). */
export interface DaySink {
  /** Own sessions, grouped by visitor (the primary key's order). */
  own(rows: readonly SessionRow[]): void;
  /** The day's events, in time order (`ts`, then arrival; the chunk orders equal times by `seq`). */
  events(rows: readonly EventRow[]): void;
  /** After the events: the ids of their sessions that are not the day's own. */
  foreignIds(): readonly string[];
  foreign(rows: readonly ForeignRow[]): void;
  /** Events of the day's sessions on other days, a session's together, each session's in time order (as `events`). */
  outside(rows: readonly OutsideRow[]): void;
}

/** The rows of one day's chunk as read (tests). */
export interface DayRows {
  day: string;
  own: SessionRow[];
  events: EventRow[];
  foreign: ForeignRow[];
  outside: OutsideRow[];
}

/**
 * A sink that keeps the rows as they come, for tests.
 * @example const { sink, rows } = collectRows('2026-11-02'); runSteps(readDay('ST-a', '2026-11-02', 'UTC', sink));
 */
export function collectRows(day: string): { sink: DaySink; rows: DayRows } {
  const rows: DayRows = { day, own: [], events: [], foreign: [], outside: [] };
  const sink: DaySink = {
    own: (batch) => void rows.own.push(...batch),
    events: (batch) => void rows.events.push(...batch),
    foreignIds() {
      const own = new Set(rows.own.map((r) => r[0]));
      return [...new Set(rows.events.map((e) => e[0]).filter((id) => !own.has(id)))];
    },
    foreign: (batch) => void rows.foreign.push(...batch),
    outside: (batch) => void rows.outside.push(...batch),
  };
  return { sink, rows };
}

export interface ChunkReaderOptions {
  /** Rows per query at most (tests: small batches). */
  maxRows?: number;
  /** Text per query aimed at. */
  stepText?: number;
  /** Milliseconds of short queries between two pauses (tests: Infinity, so pauses come only after full batches). */
  sliceMs?: number;
}

/**
 * The reader of `db`: `readDay(site, day, zone, sink, maxText)` is a generator that
 * hands each query's rows to `sink` and pauses (`yield`) after it, so an incremental
 * load can let the event loop run there; every pause must lie inside one read
 * transaction for the rows to be one snapshot. It returns the characters of JSON read,
 * or `undefined` once more than `maxText` were read (the rest is not read).
 */
export function createChunkReader(db: Database.Database, options: ChunkReaderOptions = {}) {
  const maxRows = options.maxRows ?? MAX_ROWS;
  const stepText = options.stepText ?? STEP_TEXT;
  const attributeColumns = ATTRIBUTES.map((a) => SESSION_ATTRIBUTE_COLUMN[a]).join(', ');
  const sessionsJson = (after: string) =>
    db.prepare(
      `SELECT json_group_array(json_array(session_id, visitor_id, start_ts, end_ts, pageviews = 1 AND custom_events = 0, ${attributeColumns})
         ORDER BY visitor_id, session_id)
       FROM (SELECT session_id, visitor_id, start_ts, end_ts, pageviews, custom_events, ${attributeColumns}
             FROM sessions WHERE site_id = ? AND day = ? ${after} ORDER BY visitor_id, session_id LIMIT ?)`,
    ).pluck();
  const ownFirst = sessionsJson('');
  const ownNext = sessionsJson('AND (visitor_id, session_id) > (?, ?)');
  // In time order (the primary key); the chunk groups them by visitor in memory (a SQL sort of the day costs more than the read).
  const eventsJson = (from: string) =>
    db.prepare(
      `SELECT json_group_array(json_array(session_id, visitor_id, type, CASE type WHEN 0 THEN path ELSE name END, gap_ms, ts, id, json(props), seq) ORDER BY ts, id)
       FROM (SELECT session_id, visitor_id, type, name, path, gap_ms, ts, id, props, seq FROM events WHERE site_id = ? AND ${from} AND ts < ? ORDER BY ts, id LIMIT ?)`,
    ).pluck();
  const eventsFirst = eventsJson('ts >= ?');
  const eventsNext = eventsJson('(ts, id) > (?, ?)');
  // json_each first, then one index lookup per id (with `session_id IN (SELECT value FROM json_each(?))`, SQLite walked all of the site's sessions).
  const foreignSessions = db.prepare(
    `SELECT json_group_array(json_array(s.session_id, s.day, s.start_ts, s.end_ts, ${ATTRIBUTES.map((a) => `s.${SESSION_ATTRIBUTE_COLUMN[a]}`).join(', ')}))
     FROM json_each(?) AS j CROSS JOIN sessions AS s ON s.site_id = ? AND s.session_id = j.value`,
  ).pluck();
  // Events are keyed by time, not session: a session's events lie within [start_ts, end_ts] of its row.
  const sessionEvents = db.prepare(
    `SELECT json_group_array(json_array(session_id, type, CASE type WHEN 0 THEN path ELSE name END, json(props), ts, id, seq) ORDER BY ts, id)
     FROM (SELECT session_id, type, name, path, props, ts, id, seq FROM events WHERE site_id = ? AND (ts, id) > (?, ?) AND ts < ? AND session_id = ?
           ORDER BY ts, id LIMIT ?)`,
  ).pluck();

  return function* readDay(siteId: string, day: string, timezone: string, sink: DaySink, maxText = Infinity): Generator<void, number | undefined> {
    const start = dayStart(day, timezone);
    const end = dayStart(shiftDay(day, 1), timezone);
    let text = 0;
    /** Parses one query's rows; the next query's size follows theirs (`stepText` of text). */
    const read = <T>(json: string, asked: number): { rows: T[]; next: number } => {
      text += json.length;
      const rows = JSON.parse(json) as T[];
      const next = Math.max(1, Math.min(maxRows, Math.floor((asked * stepText) / Math.max(json.length, 1))));
      return { rows, next };
    };
    const over = () => text > maxText;

    /** Sessions with events on other days: id, first and last event time. */
    const spanning: [string, number, number][] = [];
    for (let asked = Math.min(FIRST_ROWS, maxRows), last: SessionRow | undefined; ; ) {
      const { rows, next } = read<SessionRow>((last ? ownNext.get(siteId, day, last[1], last[0], asked) : ownFirst.get(siteId, day, asked)) as string, asked);
      if (over()) return undefined;
      sink.own(rows);
      for (const row of rows) if (row[3] >= end) spanning.push([row[0], row[2], row[3]]);
      if (rows.length < asked) break;
      last = rows[rows.length - 1];
      asked = next;
      yield;
    }
    yield;
    for (let asked = Math.min(FIRST_ROWS, maxRows), last: EventRow | undefined; ; ) {
      const { rows, next } = read<EventRow>((last ? eventsNext.get(siteId, last[5], last[6], end, asked) : eventsFirst.get(siteId, start, end, asked)) as string, asked);
      if (over()) return undefined;
      sink.events(rows);
      if (rows.length < asked) break;
      last = rows[rows.length - 1];
      asked = next;
      yield;
    }
    yield;
    const ids = sink.foreignIds();
    for (let i = 0; i < ids.length; i += maxRows) {
      const { rows } = read<ForeignRow>(foreignSessions.get(JSON.stringify(ids.slice(i, i + maxRows)), siteId) as string, maxRows);
      if (over()) return undefined;
      sink.foreign(rows);
      for (const row of rows) spanning.push([row[0], row[2], row[3]]);
      yield;
    }
    // Each spanning session's events before the day and after it, a step at a time (a session may be long; a
    // day may have hundreds of them, each a short query: a pause once they have taken a slice).
    const due = pacer(1, options.sliceMs);
    let queries = 0;
    for (const [sessionId, first, last] of spanning) {
      if (due(queries++)) yield;
      for (const [from, to] of [[first, start], [end, last + 1]] as const) {
        for (let asked = Math.min(FIRST_ROWS, maxRows), after: [number, number] = [from, -Infinity]; from < to; ) {
          const { rows, next } = read<OutsideRow>(sessionEvents.get(siteId, after[0], after[1], to, sessionId, asked) as string, asked);
          if (over()) return undefined;
          sink.outside(rows);
          if (rows.length < asked) break;
          const tail = rows[rows.length - 1]!;
          after = [tail[4], tail[5]];
          asked = next;
          yield;
        }
      }
    }
    return text;
  };
}

export type ChunkReader = ReturnType<typeof createChunkReader>;
