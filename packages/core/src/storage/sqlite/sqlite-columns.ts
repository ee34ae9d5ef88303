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
 * both kinds of session that lie outside the day. Validity: a site's chunks are
 * dropped when its rollup generation changes (any clean day changes state); a
 * chunk that reads a live or dirty day (whose rows change without a new
 * generation) is also dropped when any write happened since it was loaded.
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

type SessionRow = [string, string, number, number, number, ...string[]];

/** Loads chunks from the raw tables; call inside a read transaction. */
export function createChunkLoader(db: Database.Database) {
  const attributeColumns = ATTRIBUTES.map((a) => ATTRIBUTE_COLUMN[a]).join(', ');
  const ownSessions = db.prepare(
    `SELECT session_id, visitor_id, start_ts, end_ts, pageviews = 1 AND custom_events = 0, ${attributeColumns}
     FROM sessions WHERE site_id = ? AND day = ? ORDER BY visitor_id, session_id`,
  ).raw();
  // In time order (the primary key); grouped by visitor below, in memory (a SQL sort of the day costs more than the read).
  const dayEvents = db.prepare(
    `SELECT session_id, visitor_id, type, CASE type WHEN 0 THEN path ELSE name END, gap_ms, ts
     FROM events WHERE site_id = ? AND ts >= ? AND ts < ?`,
  ).raw();
  const foreignSessions = db.prepare(
    `SELECT session_id, day, start_ts, end_ts, ${attributeColumns} FROM sessions WHERE site_id = ? AND session_id IN (SELECT value FROM json_each(?))`,
  ).raw();
  // Events are keyed by time, not session: a session's events lie within [start_ts, end_ts] of its row.
  const sessionEvents = db.prepare(
    `SELECT type, CASE type WHEN 0 THEN path ELSE name END, ts FROM events WHERE site_id = ? AND ts >= ? AND ts <= ? AND session_id = ?`,
  ).raw();

  return (siteId: string, day: string, timezone: string, dicts: SiteDictionaries): DayChunk => {
    const start = dayStart(day, timezone);
    const end = dayStart(shiftDay(day, 1), timezone);
    const own = ownSessions.all(siteId, day) as SessionRow[];
    const events = dayEvents.all(siteId, start, end) as [string, string, number, string, number | null, number][];
    const local = new Map<string, number>();
    /** Sessions with events on other days: id, first and last event time. */
    const spanning: [string, number, number][] = [];
    own.forEach((row, i) => {
      local.set(row[0], i);
      if (row[3] >= end) spanning.push([row[0], row[2], row[3]]);
    });
    const foreignIds = [...new Set(events.map((e) => e[0]).filter((id) => !local.has(id)))];
    const foreign = foreignIds.length === 0 ? [] : (foreignSessions.all(siteId, JSON.stringify(foreignIds)) as [string, string, number, number, ...string[]][]);
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
      own.forEach((row, i) => (codes[i] = dict.code(row[5 + a] as string)));
      foreign.forEach((row, i) => (codes[own.length + i] = dict.code(row[4 + a] as string)));
      return codes;
    });
    const visitor = new Int32Array(own.length);
    const bounce = new Uint8Array(own.length);
    const durationMs = new Float64Array(own.length);
    const startTs = new Float64Array(own.length);
    let group = -1;
    own.forEach((row, i) => {
      if (i === 0 || row[1] !== own[i - 1]![1]) group++;
      visitor[i] = group;
      bounce[i] = row[4];
      durationMs[i] = row[3] - row[2];
      startTs[i] = row[2];
    });
    const sessionGroups = group + 1;
    const n = events.length;
    const evSession = new Int32Array(n);
    const evPageview = new Uint8Array(n);
    const evCode = new Int32Array(n);
    const evVisitor = new Int32Array(n);
    const evGap = new Float64Array(n);
    const evTs = new Float64Array(n);
    // Events grouped by visitor (a counting sort by the visitor's group), so a scan sees each visitor's events together.
    const groups = new Map<string, number>();
    const groupOf = new Int32Array(n);
    const perGroup: number[] = [];
    events.forEach(([sessionId, visitorId], i) => {
      if (!local.has(sessionId)) return void (groupOf[i] = -1); // an event without a session row is in no session: the raw definition's join drops it too
      let g = groups.get(visitorId);
      if (g === undefined) {
        groups.set(visitorId, (g = groups.size));
        perGroup.push(0);
      }
      groupOf[i] = g;
      perGroup[g]!++;
    });
    const next = new Int32Array(perGroup.length);
    for (let g = 1; g < perGroup.length; g++) next[g] = next[g - 1]! + perGroup[g - 1]!;
    const kept = perGroup.reduce((sum, c) => sum + c, 0);
    events.forEach(([sessionId, , type, text, gap, ts], i) => {
      const g = groupOf[i]!;
      if (g < 0) return;
      const at = next[g]!++;
      evSession[at] = local.get(sessionId)!;
      evPageview[at] = type === 0 ? 1 : 0;
      evCode[at] = type === 0 ? dicts.paths.code(text) : dicts.names.code(text);
      evVisitor[at] = sessionGroups + g;
      evGap[at] = gap ?? Number.NaN;
      evTs[at] = ts;
    });
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
      evSession: evSession.subarray(0, kept), evPageview: evPageview.subarray(0, kept), evCode: evCode.subarray(0, kept),
      evVisitor: evVisitor.subarray(0, kept), evGap: evGap.subarray(0, kept), evTs: evTs.subarray(0, kept),
      exSession, exPageview, exCode,
      groups: group + 1, size: sessions + kept + outside.length, dependsOn: [...dependsOn], matches: new Map(),
    };
  };
}

export type ChunkLoader = ReturnType<typeof createChunkLoader>;
