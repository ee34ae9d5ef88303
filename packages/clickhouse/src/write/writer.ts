import type { ClickHouseSettings } from '@clickhouse/client';
import { compareBytes, daysBetween, DuplicateImportError, type ImportRecord, type StoredEvent } from '@siteline/core';
import { readDay } from '../schema/days.js';
import { sqlDate, sqlString, tsvStrings, tsvText } from '../connection/escape.js';
import { checkEvent, EVENT_LINE_COLUMNS, eventLine } from './events.js';
import { chunks } from '../connection/parts.js';
import { TsvBody, tsvPieces } from './tsv.js';
import { GAP_COLUMNS } from '../schema/migrations/006-filter-layout.js';
import { SESSION_COLUMNS } from '../schema/migrations/008-name-counts.js';
import { GapChanges, type GapRow, makesStale, mergeSession, needsStoredEvents, sortByTime, type SessionState, type Step } from './session-plan.js';
import { SESSION_ATTRIBUTE_COLUMNS } from '../schema/migrations/002-rollups.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';
import { importCountSql, importRow } from '../sites/sites.js';

/** What the writer needs of a client: reads as JSON rows, and inserts into a table by plain name. */
export interface WriterIO {
  rows<T>(query: string, settings?: ClickHouseSettings): Promise<T[]>;
  /** Small inserts, as `JSONEachRow`. */
  insert(table: string, values: readonly object[]): Promise<void>;
  /**
   * Bulk inserts: the `TabSeparated` body (fields made by `tsvText` and `tsvInt`) of the given columns, as
   * pieces of whole lines each ending in a newline, read as the request is sent.
   */
  insertLines(table: string, columns: readonly string[], body: Iterable<string>): Promise<void>;
}

/** Days per site whose counts a write may have changed: its events' days, and the start days of the sessions it changed. */
export type TouchedDays = Map<string, Set<string>>;

/** Sessions merged between two turns of the event loop while the events' insert streams. */
const YIELD_EVERY = 5_000;

/** Session ids per look-up query: keeps the SQL text well under a megabyte. */
const IDS_PER_QUERY = 10_000;

/** Settings of the look-ups: 18.16's default `max_query_size` (256 KiB) is too small for 10,000 ids. */
const LOOKUP: ClickHouseSettings = { max_query_size: String(4 * 1024 * 1024) };

type StateRow = Record<Exclude<(typeof SESSION_COLUMNS)[number], 'paths' | 'names' | 'name_counts'>, string | number>
  & { paths: string[]; names: string[]; name_counts: (string | number)[] };

const toState = (r: StateRow): SessionState => ({
  site_id: String(r.site_id), session_id: String(r.session_id), version: Number(r.version),
  day: readDay(String(r.day)), visitor_id: String(r.visitor_id),
  start_ts: Number(r.start_ts), start_seq: Number(r.start_seq), end_ts: Number(r.end_ts), end_seq: Number(r.end_seq),
  end_day: readDay(String(r.end_day)), end_type: r.end_type === 'event' ? 'event' : 'pageview', end_path: String(r.end_path),
  pageview_count: Number(r.pageview_count), event_count: Number(r.event_count),
  entry_path: String(r.entry_path), referrer_source: String(r.referrer_source), channel: String(r.channel),
  utm_source: String(r.utm_source), utm_medium: String(r.utm_medium), utm_campaign: String(r.utm_campaign),
  country_code: String(r.country_code), device_type: String(r.device_type), browser: String(r.browser), os: String(r.os),
  paths: r.paths, names: r.names, name_counts: r.name_counts.map(Number),
});

/**
 * A state's `TabSeparated` line in `SESSION_COLUMNS` order and its sign
 * (`sessions`), joined once. Its numbers come from checked events
 * (`eventLine`) and sums of them, so they are written as they are.
 */
export function sessionLine(s: SessionState, sign: 1 | -1): string {
  return [
    tsvText(s.site_id), tsvText(s.session_id), s.version, s.day, tsvText(s.visitor_id), s.start_ts, s.start_seq,
    s.end_ts, s.end_seq, s.end_day, s.end_type, tsvText(s.end_path), s.pageview_count, s.event_count,
    tsvText(s.entry_path), tsvText(s.referrer_source), tsvText(s.channel), tsvText(s.utm_source), tsvText(s.utm_medium),
    tsvText(s.utm_campaign), tsvText(s.country_code), tsvText(s.device_type), tsvText(s.browser), tsvText(s.os),
    tsvStrings(s.paths), tsvStrings(s.names), `[${s.name_counts.join(',')}]`, sign,
  ].join('\t');
}

/** A time-on-page change's `TabSeparated` line in `GAP_COLUMNS` order, with the attributes of its session's state after the write. */
export const gapLine = (g: GapRow, session: SessionState): string =>
  [tsvText(g.site_id), g.day, tsvText(g.path), tsvText(g.session_id), g.ts, g.seq, g.timed, g.gap_ms, ...SESSION_ATTRIBUTE_COLUMNS.map((c) => tsvText(session[c]))].join('\t');

/**
 * Writes events and keeps the session tables and time on page exact:
 * 1. refuses a known import hash (`DuplicateImportError`);
 * 2. looks up the stored state of every session of the write (one query per
 *    site and 10,000 ids, none when no stored session id falls between the
 *    write's lowest and highest: derived ids start with their first instant,
 *    so a new period's sessions skip the look-up), and the stored events of
 *    the rare session that gets an event inside its stored span;
 * 3. inserts the events (sent while the sessions are merged: the stored
 *    events read above leave this write's out), each changed session as a -1
 *    row of its old state and a +1 row of its new one (`sessions`; a view
 *    keeps the +1 rows in `session_state` too), and the time-on-page changes
 *    per pageview (`pageview_gaps`, with the session's attributes after the write), and the sessions this
 *    write makes stale (`stale_sessions`, `makesStale`); the views of migrations 2 and 6 turn these into the daily sums;
 * 4. then marks the days whose counts may have changed (`day_marks`: its events' days, its sessions' start days,
 *    and every day of a session it makes stale),
 *    and records the import hash.
 * Returns those days. Not safe to run concurrently for the same sessions
 * (the caller serializes its writes).
 */
export function createWriter(io: WriterIO, target: SchemaTarget) {
  const states = async (siteId: string, ids: string[]): Promise<Map<string, SessionState>> => {
    const found = new Map<string, SessionState>();
    let low = ids[0]!;
    let high = ids[0]!;
    for (const id of ids) {
      if (compareBytes(id, low) < 0) low = id;
      if (compareBytes(id, high) > 0) high = id;
    }
    const [inRange] = await io.rows<{ n: string }>(
      `SELECT count() AS n FROM ${tableName(target, 'session_state')}
       WHERE site_id = ${sqlString(siteId)} AND session_id >= ${sqlString(low)} AND session_id <= ${sqlString(high)}`,
    );
    if (Number(inRange?.n ?? 0) === 0) return found;
    for (const part of chunks(ids, IDS_PER_QUERY)) {
      const rows = await io.rows<StateRow>(
        `SELECT ${SESSION_COLUMNS.join(', ')} FROM ${tableName(target, 'session_state')}
         WHERE site_id = ${sqlString(siteId)} AND session_id IN (${part.map(sqlString).join(', ')})`,
        LOOKUP,
      );
      for (const row of rows) {
        const state = toState(row);
        const known = found.get(state.session_id);
        // Before a merge, older versions are still there: the highest one is current.
        if (!known || known.version < state.version) found.set(state.session_id, state);
      }
    }
    return found;
  };

  /** The stored events of `sessions`, without those of this write (`written`, which may already be in). */
  const storedEvents = async (siteId: string, sessions: SessionState[], written: Map<string, StoredEvent[]>): Promise<Map<string, Step[]>> => {
    const out = new Map<string, Step[]>();
    const mine = new Set<string>();
    for (const s of sessions) for (const e of written.get(s.session_id) ?? []) mine.add(`${s.session_id}\u0000${e.ts}\u0000${e.seq}`);
    const from = sessions.reduce((d, s) => (s.day < d ? s.day : d), sessions[0]!.day);
    const to = sessions.reduce((d, s) => (s.end_day > d ? s.end_day : d), sessions[0]!.end_day);
    for (const part of chunks(sessions, IDS_PER_QUERY)) {
      const rows = await io.rows<{ session_id: string; ts: string; seq: string; type: string; path: string; day: string }>(
        `SELECT session_id, ts, seq, type, path, day FROM ${tableName(target, 'events')}
         WHERE site_id = ${sqlString(siteId)} AND day >= ${sqlDate(from)} AND day <= ${sqlDate(to)}
           AND session_id IN (${part.map((s) => sqlString(s.session_id)).join(', ')})`,
        LOOKUP,
      );
      for (const r of rows) {
        if (mine.has(`${r.session_id}\u0000${Number(r.ts)}\u0000${Number(r.seq)}`)) continue;
        const steps = out.get(r.session_id) ?? [];
        steps.push({ ts: Number(r.ts), seq: Number(r.seq), type: r.type === 'event' ? 'event' : 'pageview', path: r.path, day: readDay(r.day) });
        out.set(r.session_id, steps);
      }
    }
    for (const steps of out.values()) sortByTime(steps);
    return out;
  };

  /** Throws `DuplicateImportError` when the import's hash is recorded. */
  const refuseKnown = async (record: ImportRecord): Promise<void> => {
    const [found] = await io.rows<{ n: string }>(importCountSql(target, record.hash));
    if (Number(found?.n) > 0) throw new DuplicateImportError(record.hash);
  };
  const recordImport = (record: ImportRecord) => io.insert('imports', [importRow(record)]);

  /**
   * What a write of `events` changes besides the events, worked out against the stored state
   * (2 above): the days it touches, each changed session's new state (+1) and the state it
   * replaces (-1), the time-on-page changes, each session's state after the write, and the
   * sessions it makes stale. `breathe` runs every few thousand sessions (a write streaming
   * its events meanwhile lets the insert move on).
   */
  const changes = async (events: readonly StoredEvent[], breathe?: () => Promise<void>): Promise<Changes> => {
    const bySite = new Map<string, Map<string, StoredEvent[]>>();
    const touched: TouchedDays = new Map();
    for (const e of events) {
      let sessions = bySite.get(e.siteId);
      if (!sessions) {
        bySite.set(e.siteId, (sessions = new Map()));
        touched.set(e.siteId, new Set());
      }
      const group = sessions.get(e.sessionId);
      if (group) group.push(e);
      else sessions.set(e.sessionId, [e]);
      touched.get(e.siteId)!.add(e.day);
    }
    const result: Changes = { touched, sessions: [], gaps: new GapChanges(), after: new Map(), stale: [] };
    for (const [siteId, sessions] of bySite) {
      for (const group of sessions.values()) sortByTime(group);
      const priors = await states(siteId, [...sessions.keys()]);
      const inside = priors.size === 0 ? [] : [...sessions].filter(([id, group]) => needsStoredEvents(group, priors.get(id))).map(([id]) => priors.get(id)!);
      const stored = inside.length > 0 ? await storedEvents(siteId, inside, sessions) : new Map<string, Step[]>();
      const insideIds = new Set(inside.map((s) => s.session_id));
      const days = touched.get(siteId)!;
      let merged = 0;
      for (const [id, group] of sessions) {
        const prior = priors.get(id);
        const change = mergeSession(group, prior, insideIds.has(id) ? (stored.get(id) ?? []) : undefined, result.gaps);
        result.sessions.push({ state: change.state, sign: 1 });
        if (change.cancel) result.sessions.push({ state: change.cancel, sign: -1 });
        result.after.set(`${siteId}\u0000${id}`, change.state);
        if (makesStale(group, change)) {
          result.stale.push({ site_id: siteId, session_id: id });
          // Its rows on every day it spans now count under its current values (value_pages): those days change too.
          for (const span of [change.state, change.cancel]) if (span) for (const day of daysBetween(span.day, span.end_day)) days.add(day);
        }
        // The session is its start day's (visitor counts, goals and funnels count sessions by start day): a write
        // to its later days changes that day's counts too, and a new first event may move it to another day.
        days.add(change.state.day);
        if (change.cancel) days.add(change.cancel.day);
        if (breathe && ++merged % YIELD_EVERY === 0) await breathe();
      }
    }
    return result;
  };

  const write = async (events: readonly StoredEvent[], record?: ImportRecord): Promise<TouchedDays> => {
    // Refuses what ClickHouse cannot hold before anything is written (the lines are made as the insert sends them).
    for (const e of events) checkEvent(e);
    if (record) await refuseKnown(record);
    // The events go in while the sessions are worked out (the server parses on another core); the stored
    // events read for a session below leave them out again.
    const inserting = events.length > 0 ? io.insertLines('events', EVENT_LINE_COLUMNS, tsvPieces(events, eventLine)) : Promise.resolve();
    inserting.catch(() => {}); // awaited below; not an unhandled rejection while the sessions are worked out
    const { touched, sessions, gaps, after, stale } = await changes(events, () => new Promise((resolve) => setImmediate(resolve)));
    const sessionLines = new TsvBody();
    for (const { state, sign } of sessions) sessionLines.add(sessionLine(state, sign));
    const gapLines = new TsvBody();
    for (const g of gaps.changed()) gapLines.add(gapLine(g, after.get(`${g.site_id}\u0000${g.session_id}`)!));
    await Promise.all([
      inserting,
      stale.length > 0 && io.insert('stale_sessions', stale),
      sessionLines.rows > 0 && io.insertLines('sessions', [...SESSION_COLUMNS, 'sign'], sessionLines.done()),
      gapLines.rows > 0 && io.insertLines('pageview_gaps', GAP_COLUMNS, gapLines.done()),
    ]);
    // Last: a build that sees this mark also sees the rows above (see rollups.ts).
    const marks = dayMarks(touched);
    if (marks.length > 0) await io.insert('day_marks', marks);
    if (record) await recordImport(record);
    return touched;
  };
  /**
   * `write`; the two ends of an import written in several calls (its hash checked before the
   * first, recorded after the last); and `changes`, for a write planned before it is applied (repeatable.ts).
   */
  return Object.assign(write, { refuseKnown, recordImport, changes });
}

/** What a write changes besides its events (`changes`). */
export interface Changes {
  touched: TouchedDays;
  /** Rows of `sessions`: each changed session's new state (+1) and the stored state it replaces (-1). */
  sessions: { state: SessionState; sign: 1 | -1 }[];
  gaps: GapChanges;
  /** Each session's state after the write, by site and session id (the attributes its gap rows carry). */
  after: Map<string, SessionState>;
  stale: { site_id: string; session_id: string }[];
}

/** The `day_marks` rows of a write: one more write on every day it touched. */
export function dayMarks(touched: TouchedDays): { site_id: string; day: string; ver: number; writes: number; builds: number }[] {
  return [...touched].flatMap(([siteId, days]) => [...days].map((day) => ({ site_id: siteId, day, ver: 0, writes: 1, builds: 0 })));
}
