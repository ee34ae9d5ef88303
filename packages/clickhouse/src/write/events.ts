import type { StoredEvent } from '@siteline/core';
import { MAX_DAY, MIN_DAY } from '../schema/days.js';
import { tsvStrings, tsvText } from '../connection/escape.js';

/** Columns of an `events` row as schema version 1 made it, in the order of `eventRow` (the migration tests' released writer). */
export const EVENT_COLUMNS = [
  'site_id', 'day', 'ts', 'seq', 'type', 'name', 'path', 'session_id', 'visitor_id',
  'entry_path', 'referrer_source', 'channel', 'utm_source', 'utm_medium', 'utm_campaign', 'country_code', 'device_type', 'browser', 'os',
] as const;

/** Columns of an `events` row since schema version 4, in the order of `eventLine`: a custom event's properties as two parallel arrays. */
export const EVENT_LINE_COLUMNS = [...EVENT_COLUMNS, 'prop_keys', 'prop_values'] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Refuses what ClickHouse cannot hold faithfully (a day outside the `Date`
 * type, a negative or fractional instant), so a write fails whole instead of
 * storing a wrapped value; and anything but the two types.
 */
export function checkEvent(e: StoredEvent): void {
  if (!DAY.test(e.day) || e.day < MIN_DAY || e.day > MAX_DAY) {
    throw new RangeError(`Event day ${e.day} is outside ${MIN_DAY}..${MAX_DAY}, the range ClickHouse Date can store`);
  }
  if (!Number.isSafeInteger(e.ts) || e.ts < 0 || !Number.isSafeInteger(e.seq) || e.seq < 0) {
    throw new RangeError(`Event ts/seq must be non-negative integers (ts ${e.ts}, seq ${e.seq})`);
  }
  if (e.type !== 'pageview' && e.type !== 'event') throw new RangeError(`Event type ${String(e.type)} is neither pageview nor event`);
}

/**
 * A stored event's `events` row as a `TabSeparated` line (`EVENT_LINE_COLUMNS`).
 * Written out field by field and joined once (a template literal would leave
 * a tree of small strings to flatten later): it runs once per imported event.
 * Pageviews carry no properties (empty arrays).
 */
export function eventLine(e: StoredEvent): string {
  checkEvent(e);
  const props = e.type === 'event' ? e.props : undefined;
  const keys = props && props.length > 0 ? tsvStrings(props.map((p) => p[0])) : '[]';
  const values = props && props.length > 0 ? tsvStrings(props.map((p) => p[1])) : '[]';
  return [
    tsvText(e.siteId), e.day, e.ts, e.seq, e.type, tsvText(e.name), tsvText(e.path), tsvText(e.sessionId), tsvText(e.visitorId),
    tsvText(e.entryPath), tsvText(e.referrerSource), tsvText(e.channel), tsvText(e.utmSource), tsvText(e.utmMedium),
    tsvText(e.utmCampaign), tsvText(e.countryCode), tsvText(e.deviceType), tsvText(e.browser), tsvText(e.os), keys, values,
  ].join('\t');
}

/** One `events` row as an object (`JSONEachRow`), for tests and the migration tests' released writer. */
export function eventRow(e: StoredEvent): Record<(typeof EVENT_COLUMNS)[number], string | number> {
  checkEvent(e);
  return {
    site_id: e.siteId, day: e.day, ts: e.ts, seq: e.seq, type: e.type, name: e.name, path: e.path, session_id: e.sessionId,
    visitor_id: e.visitorId, entry_path: e.entryPath, referrer_source: e.referrerSource, channel: e.channel, utm_source: e.utmSource,
    utm_medium: e.utmMedium, utm_campaign: e.utmCampaign, country_code: e.countryCode, device_type: e.deviceType, browser: e.browser, os: e.os,
  };
}
