import type { StoredEvent } from '@siteline/core';
import { MAX_DAY, MIN_DAY } from './days.js';

/** One `events` row as sent in `JSONEachRow`. */
export type EventRow = ReturnType<typeof eventRow>;

/**
 * The row of a stored event. Refuses what ClickHouse cannot hold faithfully
 * (a day outside the `Date` type, a negative or fractional instant), so a
 * write fails whole instead of storing a wrapped value.
 */
export function eventRow(e: StoredEvent) {
  if (e.day < MIN_DAY || e.day > MAX_DAY) {
    throw new RangeError(`Event day ${e.day} is outside ${MIN_DAY}..${MAX_DAY}, the range ClickHouse Date can store`);
  }
  if (!Number.isSafeInteger(e.ts) || e.ts < 0 || !Number.isSafeInteger(e.seq) || e.seq < 0) {
    throw new RangeError(`Event ts/seq must be non-negative integers (ts ${e.ts}, seq ${e.seq})`);
  }
  return {
    site_id: e.siteId,
    day: e.day,
    ts: e.ts,
    seq: e.seq,
    type: e.type,
    name: e.name,
    path: e.path,
    session_id: e.sessionId,
    visitor_id: e.visitorId,
    entry_path: e.entryPath,
    referrer_source: e.referrerSource,
    channel: e.channel,
    utm_source: e.utmSource,
    utm_medium: e.utmMedium,
    utm_campaign: e.utmCampaign,
    country_code: e.countryCode,
    device_type: e.deviceType,
    browser: e.browser,
    os: e.os,
  };
}
