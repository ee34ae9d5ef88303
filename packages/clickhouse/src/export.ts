import type { ClickHouseSettings } from '@clickhouse/client';
import type { DayRange, EventPage, PropEntry, StoredEvent } from '@siteline/core';
import { clampDay, outsideDateType, readDay } from './days.js';
import { sqlDate, sqlInt, sqlString } from './escape.js';
import { SESSION_ATTRIBUTE_COLUMNS } from './migrations/002-rollups.js';
import { tableName, type SchemaTarget } from './schema.js';

type Rows = <T>(query: string, settings?: ClickHouseSettings) => Promise<T[]>;

interface EventRead {
  ts: string; seq: string; d: string; type: 'pageview' | 'event'; name: string; path: string; session_id: string; visitor_id: string;
  prop_keys: string[]; prop_values: string[];
}

/** A page's session ids fit one look-up; 18.16's default `max_query_size` (256 KiB) does not hold 5,000 ids. */
const LOOKUP: ClickHouseSettings = { max_query_size: String(4 * 1024 * 1024) };

/**
 * `Storage.eventPage` over ClickHouse. Events of the range's days by `(ts, seq, session_id)`
 * (session_id makes the order total), keyset-paged: the cursor is the last event's
 * `ts:seq:session_id`. Session attributes come from `session_state` (the newest version of
 * each session of the page), which the writer keeps exact, not from the event row, which
 * holds them as they were when it was written. Works the same through `Distributed`
 * tables: the shards' rows are merged in order by the server asked.
 */
export function createEventPages(rows: Rows, target: SchemaTarget) {
  return async (range: DayRange, after: string | undefined, limit: number): Promise<EventPage> => {
    if (outsideDateType(range)) return { events: [], next: undefined };
    let position = '';
    if (after !== undefined) {
      const [ts, seq, ...rest] = after.split(':');
      const [t, s, id] = [sqlInt(Number(ts)), sqlInt(Number(seq)), sqlString(rest.join(':'))];
      position = ` AND (ts > ${t} OR (ts = ${t} AND (seq > ${s} OR (seq = ${s} AND session_id > ${id}))))`;
    }
    const events = await rows<EventRead>(
      `SELECT ts, seq, toString(day) AS d, type, name, path, session_id, visitor_id, prop_keys, prop_values FROM ${tableName(target, 'events')}
       WHERE site_id = ${sqlString(range.siteId)} AND day >= ${sqlDate(clampDay(range.from))} AND day <= ${sqlDate(clampDay(range.to))}${position}
       ORDER BY ts, seq, session_id LIMIT ${sqlInt(limit)}`,
    );
    if (events.length === 0) return { events: [], next: undefined };
    const ids = [...new Set(events.map((e) => e.session_id))];
    const attributes = SESSION_ATTRIBUTE_COLUMNS.map((c) => `argMax(${c}, version) AS a_${c}`).join(', ');
    const states = await rows<Record<string, string>>(
      `SELECT session_id AS sid, ${attributes} FROM ${tableName(target, 'session_state')}
       WHERE site_id = ${sqlString(range.siteId)} AND session_id IN (${ids.map(sqlString).join(', ')}) GROUP BY session_id`,
      LOOKUP,
    );
    const bySession = new Map(states.map((s) => [s.sid!, s]));
    const last = events.at(-1)!;
    return {
      events: events.map((e) => toStored(range.siteId, e, bySession.get(e.session_id))),
      next: events.length < limit ? undefined : `${last.ts}:${last.seq}:${last.session_id}`,
    };
  };
}

function toStored(siteId: string, e: EventRead, s: Record<string, string> | undefined): StoredEvent {
  if (!s) throw new Error(`Session ${e.session_id} of site ${siteId} has events but no session_state row`);
  return {
    siteId, ts: Number(e.ts), day: readDay(e.d), type: e.type, name: e.name, path: e.path, visitorId: e.visitor_id, sessionId: e.session_id,
    seq: Number(e.seq), entryPath: s.a_entry_path!, referrerSource: s.a_referrer_source!, channel: s.a_channel!, utmSource: s.a_utm_source!,
    utmMedium: s.a_utm_medium!, utmCampaign: s.a_utm_campaign!, countryCode: s.a_country_code!, deviceType: s.a_device_type!,
    browser: s.a_browser!, os: s.a_os!,
    ...(e.prop_keys.length === 0 ? {} : { props: e.prop_keys.map((key, i): PropEntry => [key, e.prop_values[i]!]) }),
  };
}
