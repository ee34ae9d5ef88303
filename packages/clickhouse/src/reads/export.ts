import type { ClickHouseSettings } from '@clickhouse/client';
import type { DayRange, EventPage, PropEntry, StoredEvent } from '@siteline/core';
import { addDays, clampDay, outsideDateType, readDay } from '../schema/days.js';
import { sqlDate, sqlInt, sqlString } from '../connection/escape.js';
import { SESSION_ATTRIBUTE_COLUMNS } from '../schema/migrations/002-rollups.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';

type Rows = <T>(query: string, settings?: ClickHouseSettings) => Promise<T[]>;

interface EventRead {
  ts: string; seq: string; d: string; type: 'pageview' | 'event'; name: string; path: string; session_id: string; visitor_id: string;
  prop_keys: string[]; prop_values: string[];
}

/** A page's session ids fit one look-up; 18.16's default `max_query_size` (256 KiB) does not hold 5,000 ids. */
const LOOKUP: ClickHouseSettings = { max_query_size: String(4 * 1024 * 1024) };

/**
 * `Storage.eventPage` over ClickHouse. Events of the range's days by `(ts, seq, session_id)`
 * (session_id makes the order total), keyset-paged and read one day at a time: `events` is
 * sorted by `(site_id, day, session_id, ts, seq)`, so a page's query names one day (a day
 * follows from ts, so day order is ts order) and reads that day's rows only, not the rest of
 * the range (which made every page read the whole range: quadratic). The cursor is
 * `day:ts:seq:session_id` of the last event; a day read to its end moves on to the next day
 * that has events (one look-up, so empty days cost nothing). Session attributes come from
 * `session_state` (the newest version of each session of the page), which the writer keeps
 * exact, not from the event row, which holds them as they were when it was written. Works
 * the same through `Distributed` tables: the shards' rows are merged in order by the server asked.
 */
export function createEventPages(rows: Rows, target: SchemaTarget) {
  const table = tableName(target, 'events');
  /** The first day after `day` (up to `last`) with events of the site, or undefined. */
  const nextDay = async (siteId: string, day: string, last: string): Promise<string | undefined> => {
    const [found] = await rows<{ d: string; n: string }>(
      `SELECT toString(min(day)) AS d, count() AS n FROM ${table} WHERE site_id = ${sqlString(siteId)} AND day > ${sqlDate(day)} AND day <= ${sqlDate(last)}`,
    );
    return found && Number(found.n) > 0 ? readDay(found.d) : undefined;
  };
  const attributes = SESSION_ATTRIBUTE_COLUMNS.map((c) => `argMax(${c}, version) AS a_${c}`).join(', ');
  /**
   * The current attributes of the page's sessions. `session_state` is sorted by session id,
   * so a look-up of 5,000 ids reads all of it: per page, that grows with the store. So first
   * `sessions` (sorted by start day) of the page's days and the day before, where nearly
   * every session of the page started: the newest `+1` version of each session, unless a
   * `-1` row of that version says it was replaced (by a state whose start day moved out of
   * the window). What that leaves (sessions longer than a day, replaced ones) comes from
   * `session_state`.
   */
  const sessionStates = async (siteId: string, events: readonly EventRead[]): Promise<Map<string, Record<string, string>>> => {
    const ids = [...new Set(events.map((e) => e.session_id))];
    const [first, last] = [readDay(events[0]!.d), readDay(events.at(-1)!.d)];
    const windowed = await rows<Record<string, string>>(
      `SELECT session_id AS sid, ${attributes.replaceAll(', version)', ', if(sign = 1, version, 0))')},
         maxIf(version, sign = 1) AS live, maxIf(version, sign = -1) AS gone FROM ${tableName(target, 'sessions')}
       WHERE site_id = ${sqlString(siteId)} AND day >= ${sqlDate(clampDay(addDays(first, -1)))} AND day <= ${sqlDate(last)}
         AND session_id IN (${ids.map(sqlString).join(', ')}) GROUP BY session_id`,
      LOOKUP,
    );
    const found = new Map(windowed.filter((s) => Number(s.live) > 0 && Number(s.gone) < Number(s.live)).map((s) => [s.sid!, s]));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length === 0) return found;
    const states = await rows<Record<string, string>>(
      `SELECT session_id AS sid, ${attributes} FROM ${tableName(target, 'session_state')}
       WHERE site_id = ${sqlString(siteId)} AND session_id IN (${missing.map(sqlString).join(', ')}) GROUP BY session_id`,
      LOOKUP,
    );
    for (const state of states) found.set(state.sid!, state);
    return found;
  };
  return async (range: DayRange, after: string | undefined, limit: number): Promise<EventPage> => {
    if (outsideDateType(range)) return { events: [], next: undefined };
    const last = clampDay(range.to);
    let day: string | undefined = clampDay(range.from);
    let position = '';
    if (after !== undefined) {
      const [d, ts, seq, ...rest] = after.split(':');
      const [t, s, id] = [sqlInt(Number(ts)), sqlInt(Number(seq)), sqlString(rest.join(':'))];
      day = d!;
      position = ` AND (ts > ${t} OR (ts = ${t} AND (seq > ${s} OR (seq = ${s} AND session_id > ${id}))))`;
    }
    const events: EventRead[] = [];
    while (day !== undefined && events.length < limit) {
      const wanted = limit - events.length;
      const read = await rows<EventRead>(
        `SELECT ts, seq, toString(day) AS d, type, name, path, session_id, visitor_id, prop_keys, prop_values FROM ${table}
         WHERE site_id = ${sqlString(range.siteId)} AND day = ${sqlDate(day)}${position}
         ORDER BY ts, seq, session_id LIMIT ${sqlInt(wanted)}`,
      );
      events.push(...read);
      if (read.length === wanted) break;
      day = await nextDay(range.siteId, day, last);
      position = '';
    }
    if (events.length === 0) return { events: [], next: undefined };
    const bySession = await sessionStates(range.siteId, events);
    const lastEvent = events.at(-1)!;
    return {
      events: events.map((e) => toStored(range.siteId, e, bySession.get(e.session_id))),
      next: events.length < limit ? undefined : `${readDay(lastEvent.d)}:${lastEvent.ts}:${lastEvent.seq}:${lastEvent.session_id}`,
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
