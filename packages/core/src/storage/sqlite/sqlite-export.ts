import type Database from 'better-sqlite3';
import type { DayRange, EventPage, PropEntry, StoredEvent } from '../types.js';

interface ExportRow {
  ts: number; seq: number; id: number; day: string; type: number; name: string; path: string; visitor_id: string; session_id: string;
  entry_path: string; referrer_source: string; channel: string; utm_source: string; utm_medium: string; utm_campaign: string;
  country_code: string; device_type: string; browser: string; os: string; props: string | null;
}

/**
 * `Storage.eventPage` over SQLite: events of the range by `(ts, seq, id)` (id makes the order
 * total), each with its session's attributes from `sessions` (one row per session, unique
 * by `(site_id, session_id)`). Keyset paging: the cursor is the last row's `ts:seq:id`, and
 * the scan starts at the cursor's ts, so every page is one index range of `events` (primary
 * key `(site_id, ts, id)`; SQLite sorts only rows of equal ts by `seq, id`), whatever page it is.
 */
export function createEventPages(db: Database.Database): (range: DayRange, after: string | undefined, limit: number) => EventPage {
  const select = db.prepare<[string, number, number, number, number, number, number, number, number], ExportRow>(
    `SELECT e.ts, e.seq, e.id, e.day, e.type, e.name, e.path, e.visitor_id, e.session_id, s.entry_path, s.referrer_source, s.channel,
       s.utm_source, s.utm_medium, s.utm_campaign, s.country_code, s.device_type, s.browser, s.os, e.props
     FROM events e JOIN sessions s ON s.site_id = e.site_id AND s.session_id = e.session_id
     WHERE e.site_id = ? AND e.ts >= ? AND e.ts < ? AND (e.ts > ? OR (e.ts = ? AND (e.seq > ? OR (e.seq = ? AND e.id > ?))))
     ORDER BY e.ts, e.seq, e.id LIMIT ?`,
  );
  return (range, after, limit) => {
    const [ts, seq, id] = after === undefined ? [Number.MIN_SAFE_INTEGER, 0, 0] : after.split(':').map(Number) as [number, number, number];
    // The lower bound is the cursor's ts (not only the range's start): the OR of the keyset is no index bound, and
    // without this every page would walk the index from the range's start (quadratic: minutes at 1M events).
    const rows = select.all(range.siteId, Math.max(range.startMs, ts), range.endMs, ts, ts, seq, seq, id, limit);
    const last = rows.at(-1);
    return {
      events: rows.map((r) => toStored(range.siteId, r)),
      next: rows.length < limit || last === undefined ? undefined : `${last.ts}:${last.seq}:${last.id}`,
    };
  };
}

function toStored(siteId: string, r: ExportRow): StoredEvent {
  return {
    siteId, ts: r.ts, day: r.day, type: r.type === 0 ? 'pageview' : 'event', name: r.name, path: r.path, visitorId: r.visitor_id,
    sessionId: r.session_id, seq: r.seq, entryPath: r.entry_path, referrerSource: r.referrer_source, channel: r.channel,
    utmSource: r.utm_source, utmMedium: r.utm_medium, utmCampaign: r.utm_campaign, countryCode: r.country_code,
    deviceType: r.device_type, browser: r.browser, os: r.os,
    ...(r.props === null ? {} : { props: JSON.parse(r.props) as PropEntry[] }),
  };
}
