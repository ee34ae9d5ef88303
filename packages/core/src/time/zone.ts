import { tz } from '@date-fns/tz';
import { format } from 'date-fns/format';

/**
 * Calendar days in a site's IANA time zone. Days are plain `YYYY-MM-DD`
 * strings; instants are epoch milliseconds.
 */

const zoneCache = new Map<string, boolean>();

/**
 * Whether `zone` is an IANA time zone this runtime knows.
 * @example isValidTimeZone('Europe/Berlin') // true
 */
export function isValidTimeZone(zone: string): boolean {
  let valid = zoneCache.get(zone);
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      valid = zone.length > 0 && zone.length <= 64;
    } catch {
      valid = false;
    }
    zoneCache.set(zone, valid);
  }
  return valid;
}

const QUARTER_HOUR = 15 * 60_000;
const dayCaches = new Map<string, Map<number, string>>();

/**
 * The local calendar day of an instant. Every zone offset in use is a whole
 * number of quarter hours, so the day is constant within each UTC quarter
 * hour and can be memoised per quarter (imports call this for every event).
 * @example localDay(Date.parse('2026-11-01T23:30:00Z'), 'Europe/Berlin') // '2026-11-02'
 */
export function localDay(ms: number, zone: string): string {
  let cache = dayCaches.get(zone);
  if (!cache) dayCaches.set(zone, (cache = new Map()));
  const bucket = Math.floor(ms / QUARTER_HOUR);
  let day = cache.get(bucket);
  if (day === undefined) {
    day = format(ms, 'uuuu-MM-dd', { in: tz(zone) });
    if (cache.size > 50_000) cache.clear();
    cache.set(bucket, day);
  }
  return day;
}

/**
 * The UTC instant at which local day `day` starts in `zone` (local midnight,
 * or the first instant of the day where midnight is skipped by DST).
 * @example dayStart('2026-03-29', 'Europe/Berlin') // Date.parse('2026-03-28T23:00:00Z')
 */
export function dayStart(day: string, zone: string): number {
  const key = `${zone} ${day}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    if (dayStarts.size > 20_000) dayStarts.clear();
    dayStarts.set(key, (start = searchDayStart(day, zone)));
  }
  return start;
}

/** Memo of `dayStart` (every report computes the start of its range's first and last days). */
const dayStarts = new Map<string, number>();

function searchDayStart(day: string, zone: string): number {
  // Local midnight is within +-14 h of UTC midnight: search that window for
  // the first quarter hour whose local day is `day`.
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  let lo = utcMidnight - 15 * 3_600_000;
  let hi = utcMidnight + 15 * 3_600_000;
  // Invariant: localDay(lo) < day <= localDay(hi).
  while (hi - lo > 60_000) {
    const mid = lo + Math.floor((hi - lo) / 2 / 60_000) * 60_000;
    if (localDayUncached(mid, zone) < day) lo = mid;
    else hi = mid;
  }
  return hi;
}

function localDayUncached(ms: number, zone: string): string {
  return format(ms, 'uuuu-MM-dd', { in: tz(zone) });
}

/**
 * `day` shifted by `n` calendar days.
 * @example shiftDay('2026-02-28', 1) // '2026-03-01'
 */
export function shiftDay(day: string, n: number): string {
  return isoDay(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000);
}

/**
 * The UTC calendar day of an instant as ISO 8601 writes it: `YYYY-MM-DD` for the
 * years 0000-9999, `±YYYYYY-MM-DD` beyond (a compared range can reach there).
 * @example isoDay(Date.parse('2026-02-28T12:00:00Z')) // '2026-02-28'
 */
export function isoDay(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.slice(0, iso.indexOf('T'));
}

/**
 * Inclusive list of days from `from` to `to`.
 * @example daysBetween('2026-01-30', '2026-02-01') // ['2026-01-30', '2026-01-31', '2026-02-01']
 */
export function daysBetween(from: string, to: string): string[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  return Array.from({ length: Math.max(0, rangeLength(from, to)) }, (_, i) => isoDay(start + i * 86_400_000));
}

/**
 * Ascending days as runs of consecutive days, both ends inclusive.
 * @example runsOf(['2026-01-01', '2026-01-02', '2026-01-05']) // [{ from: '2026-01-01', to: '2026-01-02' }, { from: '2026-01-05', to: '2026-01-05' }]
 */
export function runsOf(days: readonly string[]): { from: string; to: string }[] {
  const runs: { from: string; to: string }[] = [];
  for (const day of days) {
    const last = runs[runs.length - 1];
    if (last && shiftDay(last.to, 1) === day) last.to = day;
    else runs.push({ from: day, to: day });
  }
  return runs;
}

/** Number of days in the inclusive range. */
export function rangeLength(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}
