/**
 * A bounded in-memory columnar copy of the raw rows, one chunk per (site, day),
 * for filtered reads (sqlite-scan.ts evaluates a `Selection` over it). Strings
 * are dictionary-encoded per site, so each condition is tested once per
 * distinct value, and a day's sessions and events are typed arrays scanned in a
 * few milliseconds where SQL over the same rows takes hundreds.
 *
 * A chunk holds everything needed to decide, for each session it mentions,
 * whether the session matches: the day's own sessions (starting that day), the
 * "foreign" sessions of the day's events that started earlier, and the events of
 * both kinds of session that lie outside the day. So a chunk reads the rows of
 * its own day and of the days its foreign sessions started on (`dependsOn`): a
 * write that changes its content changes one of those days' rows (a later event
 * of a session changes the session's row on its start day), and the chunk stays
 * valid while their versions (sqlite-day-versions.ts) hold.
 */
import type Database from 'better-sqlite3';
import { dayStart, shiftDay } from '../../time/zone.js';
import type { SessionAttribute } from '../types.js';
import { ATTRIBUTE_COLUMN } from './sqlite-selection-raw.js';

/** The session attributes in chunk order; `entryPath` shares the path dictionary with pageviews. */
export const ATTRIBUTES: readonly SessionAttribute[] = Object.keys(ATTRIBUTE_COLUMN) as SessionAttribute[];

/** Strings of one kind, each with a small integer code. */
export class Dictionary {
  readonly values: string[] = [];
  private readonly codes = new Map<string, number>();
  code(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
    }
    return code;
  }
}

/** A site's dictionaries: `paths` (entry pages and pageview paths), `names` (custom events), one per other attribute. */
export interface SiteDictionaries {
  paths: Dictionary;
  names: Dictionary;
  /** Indexed like `ATTRIBUTES` (index 0, `entryPath`, is `paths`). */
  attributes: Dictionary[];
}

/** One (site, day): local session index s < `own` are the day's sessions, the rest foreign ones. */
export interface DayChunk {
  day: string;
  own: number;
  sessions: number;
  /** Attribute codes, `ATTRIBUTES` order, each `sessions` long. */
  attributes: Int32Array[];
  /** Own sessions only: visitor group (consecutive sessions of one visitor share it), bounce, duration, start. */
  visitor: Int32Array;
  bounce: Uint8Array;
  durationMs: Float64Array;
  startTs: Float64Array;
  /** The day's events, grouped by visitor: session (local index), pageview (1) or custom event (0), path or name code, visitor group, gap (NaN for none), timestamp. */
  evSession: Int32Array;
  evPageview: Uint8Array;
  evCode: Int32Array;
  evVisitor: Int32Array;
  evGap: Float64Array;
  evTs: Float64Array;
  /** Events of the chunk's sessions on other days, for deciding whether they match. */
  exSession: Int32Array;
  exPageview: Uint8Array;
  exCode: Int32Array;
  /** Distinct visitor groups (sessions and events numbered apart), for stamps unique across chunks. */
  groups: number;
  /** Rows held, for the cache bound. */
  size: number;
  /** Other days whose rows this chunk copies (the start days of its foreign sessions). */
  dependsOn: string[];
  /** Which sessions match, for the last few selections asked (by their JSON): a dashboard asks every endpoint with the same filters. */
  matches: Map<string, Uint8Array>;
}

/** Rows per query of a day's sessions or events: each query returns one JSON text, kept well under SQLite's and V8's string limits. */
const BATCH = 50_000;

/** An own session: id, visitor, start, end, bounce (0 or 1), then the attributes in `ATTRIBUTES` order. */
type SessionRow = [string, string, number, number, number, ...string[]];
/** A foreign session: id, its day, start, end, then the attributes. */
type ForeignRow = [string, string, number, number, ...string[]];
/** An event of the day: session, visitor, type (0 pageview), path or name, gap (null for none), timestamp, id. */
type EventRow = [string, string, number, string, number | null, number, number];

/**
 * Loads chunks from the raw tables; call inside a read transaction. Rows come
 * as one JSON array per query (`json_group_array`, in batches of `BATCH` by
 * key): SQLite writes it and `JSON.parse` reads it in less than half the time
 * better-sqlite3 takes to hand over the same rows one array at a time (the
 * per-row and per-column cost dominates a day's load; measured in
 * docs/performance.md). Strings survive the round trip exactly (JSON escapes
 * every character that needs it, including U+0000).
 */
export function createChunkLoader(db: Database.Database) {
  const attributeColumns = ATTRIBUTES.map((a) => ATTRIBUTE_COLUMN[a]).join(', ');
  const sessionsJson = (after: string) =>
    db.prepare(
      `SELECT json_group_array(json_array(session_id, visitor_id, start_ts, end_ts, pageviews = 1 AND custom_events = 0, ${attributeColumns})
         ORDER BY visitor_id, session_id)
       FROM (SELECT * FROM sessions WHERE site_id = ? AND day = ? ${after} ORDER BY visitor_id, session_id LIMIT ${BATCH})`,
    ).pluck();
  // Sessions of the day grouped by visitor (the primary key's order), so consecutive sessions of one visitor share a group.
  const ownFirst = sessionsJson('');
  const ownNext = sessionsJson('AND (visitor_id, session_id) > (?, ?)');
  // In time order (the primary key); grouped by visitor below, in memory (a SQL sort of the day costs more than the read).
  const eventsJson = (from: string) =>
    db.prepare(
      `SELECT json_group_array(json_array(session_id, visitor_id, type, CASE type WHEN 0 THEN path ELSE name END, gap_ms, ts, id))
       FROM (SELECT * FROM events WHERE site_id = ? AND ${from} AND ts < ? ORDER BY ts, id LIMIT ${BATCH})`,
    ).pluck();
  const eventsFirst = eventsJson('ts >= ?');
  const eventsNext = eventsJson('(ts, id) > (?, ?)');
  // json_each first, then one index lookup per id (with the IN form SQLite walked all of the site's sessions).
  const foreignSessions = db.prepare(
    `SELECT s.session_id, s.day, s.start_ts, s.end_ts, ${ATTRIBUTES.map((a) => `s.${ATTRIBUTE_COLUMN[a]}`).join(', ')}
     FROM json_each(?) AS j CROSS JOIN sessions AS s ON s.site_id = ? AND s.session_id = j.value`,
  ).raw();
  // Events are keyed by time, not session: a session's events lie within [start_ts, end_ts] of its row.
  const sessionEvents = db.prepare(
    `SELECT type, CASE type WHEN 0 THEN path ELSE name END, ts FROM events WHERE site_id = ? AND ts >= ? AND ts <= ? AND session_id = ?`,
  ).raw();

  /** A day's own sessions, batch by batch. */
  const ownSessions = (siteId: string, day: string): SessionRow[] => {
    const rows = JSON.parse(ownFirst.get(siteId, day) as string) as SessionRow[];
    for (let batch = rows; batch.length === BATCH; ) {
      const last = batch[batch.length - 1]!;
      batch = JSON.parse(ownNext.get(siteId, day, last[1], last[0]) as string) as SessionRow[];
      for (const row of batch) rows.push(row);
    }
    return rows;
  };
  /** The events in `[start, end)`, batch by batch (within a batch in no particular order: the last key is the largest). */
  const dayEvents = (siteId: string, start: number, end: number): EventRow[] => {
    const rows = JSON.parse(eventsFirst.get(siteId, start, end) as string) as EventRow[];
    for (let batch = rows; batch.length === BATCH; ) {
      let last = batch[0]!;
      for (const row of batch) if (row[5] > last[5] || (row[5] === last[5] && row[6] > last[6])) last = row;
      batch = JSON.parse(eventsNext.get(siteId, last[5], last[6], end) as string) as EventRow[];
      for (const row of batch) rows.push(row);
    }
    return rows;
  };

  return (siteId: string, day: string, timezone: string, dicts: SiteDictionaries): DayChunk => {
    const start = dayStart(day, timezone);
    const end = dayStart(shiftDay(day, 1), timezone);
    const own = ownSessions(siteId, day);
    const events = dayEvents(siteId, start, end);
    const local = new Map<string, number>();
    /** Sessions with events on other days: id, first and last event time. */
    const spanning: [string, number, number][] = [];
    for (let i = 0; i < own.length; i++) {
      const row = own[i]!;
      local.set(row[0], i);
      if (row[3] >= end) spanning.push([row[0], row[2], row[3]]);
    }
    const foreignIds = new Set<string>();
    for (const e of events) if (!local.has(e[0])) foreignIds.add(e[0]);
    const foreign = foreignIds.size === 0 ? [] : (foreignSessions.all(JSON.stringify([...foreignIds]), siteId) as ForeignRow[]);
    const dependsOn = new Set<string>();
    for (const row of foreign) {
      local.set(row[0], local.size);
      spanning.push([row[0], row[2], row[3]]);
      dependsOn.add(row[1]);
    }
    const sessions = own.length + foreign.length;
    const attributes = ATTRIBUTES.map((_, a) => {
      const codes = new Int32Array(sessions);
      const dict = dicts.attributes[a]!;
      for (let i = 0; i < own.length; i++) codes[i] = dict.code(own[i]![5 + a] as string);
      for (let i = 0; i < foreign.length; i++) codes[own.length + i] = dict.code(foreign[i]![4 + a] as string);
      return codes;
    });
    const visitor = new Int32Array(own.length);
    const bounce = new Uint8Array(own.length);
    const durationMs = new Float64Array(own.length);
    const startTs = new Float64Array(own.length);
    let group = -1;
    for (let i = 0; i < own.length; i++) {
      const row = own[i]!;
      if (i === 0 || row[1] !== own[i - 1]![1]) group++;
      visitor[i] = group;
      bounce[i] = row[4];
      durationMs[i] = row[3] - row[2];
      startTs[i] = row[2];
    }
    const sessionGroups = group + 1;
    const n = events.length;
    // Events grouped by visitor (a counting sort by the visitor's group), so a scan sees each visitor's events together.
    const groups = new Map<string, number>();
    const groupOf = new Int32Array(n);
    const sessionOf = new Int32Array(n);
    const perGroup: number[] = [];
    let kept = 0;
    for (let i = 0; i < n; i++) {
      const s = local.get(events[i]![0]);
      // An event without a session row is in no session: the raw definition's join drops it too.
      if (s === undefined) {
        groupOf[i] = -1;
        continue;
      }
      const visitorId = events[i]![1];
      let g = groups.get(visitorId);
      if (g === undefined) {
        groups.set(visitorId, (g = groups.size));
        perGroup.push(0);
      }
      groupOf[i] = g;
      sessionOf[i] = s;
      perGroup[g]!++;
      kept++;
    }
    const next = new Int32Array(perGroup.length);
    for (let g = 1; g < perGroup.length; g++) next[g] = next[g - 1]! + perGroup[g - 1]!;
    const evSession = new Int32Array(kept);
    const evPageview = new Uint8Array(kept);
    const evCode = new Int32Array(kept);
    const evVisitor = new Int32Array(kept);
    const evGap = new Float64Array(kept);
    const evTs = new Float64Array(kept);
    for (let i = 0; i < n; i++) {
      const g = groupOf[i]!;
      if (g < 0) continue;
      const [, , type, text, gap, ts] = events[i]!;
      const at = next[g]!++;
      evSession[at] = sessionOf[i]!;
      evPageview[at] = type === 0 ? 1 : 0;
      evCode[at] = type === 0 ? dicts.paths.code(text) : dicts.names.code(text);
      evVisitor[at] = sessionGroups + g;
      evGap[at] = gap ?? Number.NaN;
      evTs[at] = ts;
    }
    group = sessionGroups + perGroup.length - 1;
    const outside: [number, number, string][] = [];
    for (const [sessionId, first, last] of spanning) {
      const s = local.get(sessionId)!;
      for (const [type, text, ts] of sessionEvents.all(siteId, first, last, sessionId) as [number, string, number][]) {
        if (ts < start || ts >= end) outside.push([s, type, text]);
      }
    }
    const exSession = new Int32Array(outside.length);
    const exPageview = new Uint8Array(outside.length);
    const exCode = new Int32Array(outside.length);
    outside.forEach(([s, type, text], i) => {
      exSession[i] = s;
      exPageview[i] = type === 0 ? 1 : 0;
      exCode[i] = type === 0 ? dicts.paths.code(text) : dicts.names.code(text);
    });
    dependsOn.delete(day);
    return {
      day, own: own.length, sessions, attributes, visitor, bounce, durationMs, startTs,
      evSession, evPageview, evCode, evVisitor, evGap, evTs,
      exSession, exPageview, exCode,
      groups: group + 1, size: sessions + kept + outside.length, dependsOn: [...dependsOn].sort(), matches: new Map(),
    };
  };
}

export type ChunkLoader = ReturnType<typeof createChunkLoader>;
