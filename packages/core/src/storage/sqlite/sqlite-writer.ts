import type Database from 'better-sqlite3';
import { DuplicateImportError } from '../../errors.js';
import type { ImportRecord, StoredEvent } from '../types.js';

interface SessionState {
  start_ts: number;
  end_ts: number;
  end_seq: number;
  last_event_id: number;
}

/**
 * Writes events and keeps the `sessions` table and each event's `gap_ms`
 * (time to the next event of its session) current, in one transaction.
 * Appends (the usual case: events arrive in time order) touch only the new
 * rows and the session's previous last event; an event older than its
 * session's last one makes that session be recomputed from its events.
 */
export function createWriter(db: Database.Database): (events: readonly StoredEvent[], record?: ImportRecord) => void {
  const insertImport = db.prepare('INSERT INTO imports (hash, events, imported_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const insertEvent = db.prepare(
    `INSERT INTO events (site_id, ts, day, type, name, path, visitor_id, session_id, seq, gap_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const getSession = db.prepare<[string, string], SessionState>(
    'SELECT start_ts, end_ts, end_seq, last_event_id FROM sessions WHERE site_id = ? AND session_id = ?',
  );
  const setGap = db.prepare('UPDATE events SET gap_ms = ? WHERE id = ?');
  const insertSession = db.prepare(
    `INSERT INTO sessions (site_id, session_id, visitor_id, day, start_ts, end_ts, end_seq, last_event_id,
       pageviews, custom_events, entry_path, referrer_source, channel, utm_source, utm_medium, utm_campaign,
       country_code, device_type, browser, os)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const extendSession = db.prepare(
    `UPDATE sessions SET end_ts = ?, end_seq = ?, last_event_id = ?, pageviews = pageviews + ?,
       custom_events = custom_events + ? WHERE site_id = ? AND session_id = ?`,
  );
  const sessionEvents = db.prepare<[string, string], { id: number; ts: number; seq: number; type: number; day: string }>(
    'SELECT id, ts, seq, type, day FROM events WHERE site_id = ? AND session_id = ? ORDER BY ts, seq',
  );
  const deleteSession = db.prepare('DELETE FROM sessions WHERE site_id = ? AND session_id = ?');

  const insertAll = (events: StoredEvent[], withGaps: boolean): number => {
    let id = 0;
    events.forEach((e, i) => {
      const next = events[i + 1];
      const gap = withGaps && next ? next.ts - e.ts : null;
      id = Number(
        insertEvent.run(e.siteId, e.ts, e.day, e.type === 'pageview' ? 0 : 1, e.name, e.path, e.visitorId, e.sessionId, e.seq, gap)
          .lastInsertRowid,
      );
    });
    return id;
  };

  const newSession = (first: StoredEvent, day: string, start: number, end: number, endSeq: number, lastId: number, pageviews: number, custom: number) =>
    insertSession.run(
      first.siteId, first.sessionId, first.visitorId, day, start, end, endSeq, lastId, pageviews, custom,
      first.entryPath, first.referrerSource, first.channel, first.utmSource, first.utmMedium, first.utmCampaign,
      first.countryCode, first.deviceType, first.browser, first.os,
    );

  /** Rebuilds one session's gaps and row from its stored events (out-of-order arrival). */
  const recompute = (group: StoredEvent[]) => {
    const { siteId, sessionId } = group[0]!;
    const rows = sessionEvents.all(siteId, sessionId);
    rows.forEach((row, i) => setGap.run(rows[i + 1] ? rows[i + 1]!.ts - row.ts : null, row.id));
    const first = rows[0]!;
    const last = rows[rows.length - 1]!;
    const pageviews = rows.filter((r) => r.type === 0).length;
    deleteSession.run(siteId, sessionId);
    // Every event of a session carries the session's attributes; the new group's are as good as any.
    newSession(group[0]!, first.day, first.ts, last.ts, last.seq, last.id, pageviews, rows.length - pageviews);
  };

  const writeSession = (group: StoredEvent[]) => {
    group.sort((a, b) => a.ts - b.ts || a.seq - b.seq);
    const first = group[0]!;
    const last = group[group.length - 1]!;
    const pageviews = group.filter((e) => e.type === 'pageview').length;
    const existing = getSession.get(first.siteId, first.sessionId);
    if (existing && (first.ts < existing.end_ts || (first.ts === existing.end_ts && first.seq < existing.end_seq))) {
      insertAll(group, false);
      recompute(group);
      return;
    }
    const lastId = insertAll(group, true);
    if (existing) {
      setGap.run(first.ts - existing.end_ts, existing.last_event_id);
      extendSession.run(last.ts, last.seq, lastId, pageviews, group.length - pageviews, first.siteId, first.sessionId);
    } else {
      newSession(first, first.day, first.ts, last.ts, last.seq, lastId, pageviews, group.length - pageviews);
    }
  };

  return db.transaction((events: readonly StoredEvent[], record?: ImportRecord) => {
    if (record && insertImport.run(record.hash, record.events, record.importedAt).changes === 0) {
      throw new DuplicateImportError(record.hash);
    }
    const sessions = new Map<string, StoredEvent[]>();
    for (const e of events) {
      const key = `${e.siteId}\u0000${e.sessionId}`;
      const group = sessions.get(key);
      if (group) group.push(e);
      else sessions.set(key, [e]);
    }
    for (const group of sessions.values()) writeSession(group);
  });
}
