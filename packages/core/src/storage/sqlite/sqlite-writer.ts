import type Database from 'better-sqlite3';
import { DuplicateImportError } from '../../errors.js';
import type { ImportRecord, StoredEvent } from '../types.js';
import { batchInsert } from './sqlite-batch.js';
import { ATTRIBUTE_COLUMNS, type LiveDeltas, type SessionAttributes } from './sqlite-live.js';

interface SessionState extends SessionAttributes {
  visitor_id: string;
  day: string;
  start_ts: number;
  end_ts: number;
  end_seq: number;
  last_event_id: number;
  pageviews: number;
  custom_events: number;
}

const EVENT_COLUMNS = ['id', 'site_id', 'ts', 'day', 'type', 'name', 'path', 'visitor_id', 'session_id', 'seq', 'gap_ms', 'props'];
const SESSION_COLUMNS = [
  'site_id', 'session_id', 'visitor_id', 'day', 'start_ts', 'end_ts', 'end_seq', 'last_event_id', 'pageviews', 'custom_events',
  'entry_path', 'referrer_source', 'channel', 'utm_source', 'utm_medium', 'utm_campaign', 'country_code', 'device_type', 'browser', 'os',
];

/** `(site, day)` pairs whose rollups a write made stale, as `site + '\0' + day`. */
export type TouchedDays = Set<string>;

/** What a write changed: `dirty`, the days whose rollups it made stale; `written`, every day whose raw rows it changed (those and the live days that took deltas). */
export interface WrittenDays {
  dirty: TouchedDays;
  written: TouchedDays;
}

/** A write of fewer events keeps live days current with deltas; a larger one makes every day it touches dirty. */
export const LIVE_WRITE_MAX_EVENTS = 1000;

const text = (a: unknown, b: unknown) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0);
/** `sessions` primary key order: site, day, visitor, session (columns 0, 3, 2, 1). */
const sessionOrder = (a: unknown[], b: unknown[]) => text(a[0], b[0]) || text(a[3], b[3]) || text(a[2], b[2]) || text(a[1], b[1]);

/**
 * Writes events and keeps the `sessions` table and each event's `gap_ms`
 * (time to the next event of its session) current. Appends (the usual case:
 * events arrive in time order) touch only the new rows and the session's
 * previous last event; an event older than its session's last one makes that
 * session be recomputed from its events. Call inside a transaction.
 *
 * A small write (the collector's batches) applies its changes to the rollups
 * of live days as deltas; everything else it touches, and everything a large
 * write (an import) touches, is returned to be marked dirty.
 */
export function createWriter(db: Database.Database, live: LiveDeltas): (events: readonly StoredEvent[], record?: ImportRecord, bulk?: boolean) => WrittenDays {
  const insertImport = db.prepare('INSERT INTO imports (hash, events, imported_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const nextEventId = db.prepare<[], number>('SELECT next FROM event_ids').pluck();
  const setNextEventId = db.prepare('UPDATE event_ids SET next = ?');
  const eventRows = batchInsert(db, 'events', EVENT_COLUMNS, 100);
  const sessionRows = batchInsert(db, 'sessions', SESSION_COLUMNS, 50, sessionOrder);
  const getSession = db.prepare<[string, string], SessionState>(
    `SELECT visitor_id, day, start_ts, end_ts, end_seq, last_event_id, pageviews, custom_events, ${ATTRIBUTE_COLUMNS}
     FROM sessions WHERE site_id = ? AND session_id = ?`,
  );
  const lastEvent = db.prepare<[string, number, number], { day: string; type: number; path: string }>(
    'SELECT day, type, path FROM events WHERE site_id = ? AND ts = ? AND id = ?',
  );
  const setGap = db.prepare('UPDATE events SET gap_ms = ? WHERE site_id = ? AND ts = ? AND id = ?');
  const extendSession = db.prepare(
    `UPDATE sessions SET end_ts = ?, end_seq = ?, last_event_id = ?, pageviews = pageviews + ?,
       custom_events = custom_events + ? WHERE site_id = ? AND session_id = ?`,
  );
  // Every event of a session lies within [start_ts, end_ts] of its row, so a time range finds them.
  const sessionEvents = db.prepare<[string, number, number, string], { id: number; ts: number; seq: number; type: number; day: string }>(
    'SELECT id, ts, seq, type, day FROM events WHERE site_id = ? AND ts BETWEEN ? AND ? AND session_id = ? ORDER BY ts, seq',
  );
  const deleteSession = db.prepare('DELETE FROM sessions WHERE site_id = ? AND session_id = ?');
  // One query for a whole write instead of a lookup per session: which of its sessions are stored already.
  const storedSessions = db.prepare<[string, string], string>(
    'SELECT session_id FROM sessions WHERE site_id = ? AND session_id IN (SELECT value FROM json_each(?))',
  ).pluck();

  let nextId = 0;
  let touched: TouchedDays = new Set();
  /** Live days whose rows this write changed (they take deltas instead of being touched). */
  let liveWritten: TouchedDays = new Set();
  let stored = new Set<string>();
  /** Live days of this write (`site\0day` -> live), or undefined for a large write. */
  let liveDays: Map<string, boolean> | undefined;
  /**
   * Whether the rollups of `(siteId, day)` take deltas in this write; if not, the day is marked touched.
   * Called for every day whose rows the write changes, so the live ones are recorded as written here.
   */
  const takesDeltas = (siteId: string, day: string): boolean => {
    const key = `${siteId}\u0000${day}`;
    let isLive = liveDays?.get(key);
    if (liveDays && isLive === undefined) liveDays.set(key, (isLive = live.isLive(siteId, day)));
    if (!isLive) touched.add(key);
    else liveWritten.add(key);
    return isLive === true;
  };

  const insertEvents = (group: readonly StoredEvent[], withGaps: boolean): number => {
    let day = '';
    for (let i = 0; i < group.length; i++) {
      const e = group[i]!;
      const next = group[i + 1];
      const gap = withGaps && next ? next.ts - e.ts : null;
      eventRows.add([nextId++, e.siteId, e.ts, e.day, e.type === 'pageview' ? 0 : 1, e.name, e.path, e.visitorId, e.sessionId, e.seq, gap, propsText(e)]);
      if (!liveDays) {
        if (e.day !== day) touched.add(`${e.siteId}\u0000${(day = e.day)}`);
      } else if (!withGaps) touched.add(`${e.siteId}\u0000${e.day}`);
      else if (takesDeltas(e.siteId, e.day)) {
        if (e.type === 'pageview') live.pageview(e.siteId, e.day, e.path, e.visitorId, gap);
        else live.event(e.siteId, e.day, e.name);
      }
    }
    return nextId - 1;
  };

  const addSession = (first: StoredEvent, day: string, start: number, end: number, endSeq: number, lastId: number, pageviews: number, custom: number) => {
    sessionRows.add([
      first.siteId, first.sessionId, first.visitorId, day, start, end, endSeq, lastId, pageviews, custom,
      first.entryPath, first.referrerSource, first.channel, first.utmSource, first.utmMedium, first.utmCampaign,
      first.countryCode, first.deviceType, first.browser, first.os,
    ]);
    // A small write's later sessions look for this one (a visitor's other sessions that day).
    if (liveDays) sessionRows.flush();
  };

  /** Rebuilds one session's gaps and row from its stored events (out-of-order arrival); its days become dirty. */
  const recompute = (group: StoredEvent[], existing: SessionState) => {
    eventRows.flush();
    const { siteId, sessionId } = group[0]!;
    const from = Math.min(group[0]!.ts, existing.start_ts);
    const to = Math.max(group[group.length - 1]!.ts, existing.end_ts);
    const rows = sessionEvents.all(siteId, from, to, sessionId);
    rows.forEach((row, i) => {
      setGap.run(rows[i + 1] ? rows[i + 1]!.ts - row.ts : null, siteId, row.ts, row.id);
      touched.add(`${siteId}\u0000${row.day}`);
    });
    const first = rows[0]!;
    const last = rows[rows.length - 1]!;
    const pageviews = rows.filter((r) => r.type === 0).length;
    deleteSession.run(siteId, sessionId);
    // The session keeps the attributes of its earliest event: the new group's only if it now starts the session.
    const lead = group[0]!;
    const attributes = first.ts === lead.ts && first.seq === lead.seq ? lead : storedAttributes(lead, existing);
    addSession(attributes, first.day, first.ts, last.ts, last.seq, last.id, pageviews, rows.length - pageviews);
    sessionRows.flush();
  };

  const writeSession = (group: StoredEvent[]) => {
    for (let i = 1; i < group.length; i++) {
      const a = group[i - 1]!;
      const b = group[i]!;
      if (a.ts > b.ts || (a.ts === b.ts && a.seq > b.seq)) {
        group.sort((x, y) => x.ts - y.ts || x.seq - y.seq);
        break;
      }
    }
    const first = group[0]!;
    const last = group[group.length - 1]!;
    let pageviews = 0;
    for (const e of group) if (e.type === 'pageview') pageviews++;
    const custom = group.length - pageviews;
    const existing = stored.has(`${first.siteId}\u0000${first.sessionId}`) ? getSession.get(first.siteId, first.sessionId) : undefined;
    if (existing && (first.ts < existing.end_ts || (first.ts === existing.end_ts && first.seq < existing.end_seq))) {
      insertEvents(group, false);
      recompute(group, existing);
      return;
    }
    const lastId = insertEvents(group, true);
    if (existing) {
      const previous = lastEvent.get(first.siteId, existing.end_ts, existing.last_event_id)!;
      const gap = first.ts - existing.end_ts;
      setGap.run(gap, first.siteId, existing.end_ts, existing.last_event_id);
      extendSession.run(last.ts, last.seq, lastId, pageviews, custom, first.siteId, first.sessionId);
      if (takesDeltas(first.siteId, existing.day)) {
        const wasBounce = existing.pageviews === 1 && existing.custom_events === 0 ? 1 : 0;
        live.extend(first.siteId, existing.day, existing, -wasBounce, last.ts - existing.end_ts);
      }
      if (takesDeltas(first.siteId, previous.day) && previous.type === 0) live.gap(first.siteId, previous.day, previous.path, gap);
    } else {
      addSession(first, first.day, first.ts, last.ts, last.seq, lastId, pageviews, custom);
      if (takesDeltas(first.siteId, first.day)) {
        const attributes: SessionAttributes = {
          entry_path: first.entryPath, referrer_source: first.referrerSource, channel: first.channel, utm_source: first.utmSource,
          utm_medium: first.utmMedium, utm_campaign: first.utmCampaign, country_code: first.countryCode,
          device_type: first.deviceType, browser: first.browser, os: first.os,
        };
        const bounce = pageviews === 1 && custom === 0 ? 1 : 0;
        live.session(first.siteId, first.day, first.visitorId, first.sessionId, attributes, bounce, last.ts - first.ts);
      }
    }
  };

  /** `bulk`: a part of a large write (an import in batches), whatever its size. */
  return (events, record, bulk = false) => {
    // What a failed write left buffered was rolled back with its transaction: it must not reach this one.
    eventRows.clear();
    sessionRows.clear();
    live.discard();
    if (record && insertImport.run(record.hash, record.events, record.importedAt).changes === 0) {
      throw new DuplicateImportError(record.hash);
    }
    nextId = nextEventId.get()!;
    touched = new Set();
    liveWritten = new Set();
    liveDays = !bulk && events.length < LIVE_WRITE_MAX_EVENTS ? new Map() : undefined;
    const sessions = new Map<string, StoredEvent[]>();
    for (const e of events) {
      const key = `${e.siteId}\u0000${e.sessionId}`;
      const group = sessions.get(key);
      if (group) group.push(e);
      else sessions.set(key, [e]);
    }
    stored = new Set();
    const idsBySite = new Map<string, string[]>();
    for (const [first] of sessions.values()) {
      const ids = idsBySite.get(first!.siteId);
      if (ids) ids.push(first!.sessionId);
      else idsBySite.set(first!.siteId, [first!.sessionId]);
    }
    for (const [siteId, ids] of idsBySite) for (const id of storedSessions.all(siteId, JSON.stringify(ids))) stored.add(`${siteId}\u0000${id}`);
    for (const group of sessions.values()) writeSession(group);
    eventRows.flush();
    sessionRows.flush();
    live.flush();
    setNextEventId.run(nextId);
    return { dirty: touched, written: new Set([...touched, ...liveWritten]) };
  };
}

/** The `props` column of an event: its custom event properties as JSON, or NULL (pageviews carry none). */
export function propsText(e: StoredEvent): string | null {
  return e.type === 'event' && e.props !== undefined && e.props.length > 0 ? JSON.stringify(e.props) : null;
}

/** `event` carrying the attributes already stored for its session. */
function storedAttributes(event: StoredEvent, row: SessionState): StoredEvent {
  return {
    ...event,
    visitorId: row.visitor_id,
    entryPath: row.entry_path,
    referrerSource: row.referrer_source,
    channel: row.channel,
    utmSource: row.utm_source,
    utmMedium: row.utm_medium,
    utmCampaign: row.utm_campaign,
    countryCode: row.country_code,
    deviceType: row.device_type,
    browser: row.browser,
    os: row.os,
  };
}
