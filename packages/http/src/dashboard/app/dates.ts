/**
 * Every date rule of the dashboard, in one place: the ranges it offers and the from/to it
 * computes for them, which intervals a range allows, where "now" falls among a
 * timeseries' buckets, and the clock it all runs on (the server's: the API decides "today"
 * by it, so the dashboard's dates agree with the reports'). Days are the site's calendar
 * days, `YYYY-MM-DD`; instants are epoch milliseconds. No DOM: unit-tested in Node.
 */
import type { Interval, Period } from '@siteline/core';

/** The ranges the period picker offers; `custom` is a from/to the reader typed. */
export const RANGES = ['today', 'yesterday', '7d', '30d', 'month', 'last_month', '12mo', 'custom'] as const;
export type RangeName = (typeof RANGES)[number];

export const RANGE_LABELS: Record<RangeName, string> = {
  today: 'Today', yesterday: 'Yesterday', '7d': 'Last 7 days', '30d': 'Last 30 days', month: 'Month to date',
  last_month: 'Last month', '12mo': 'Last 12 months', custom: 'Custom range',
};

/** The ranges the API names itself (`period`); the others are sent as `from`/`to`. */
const API_PERIODS: Partial<Record<RangeName, Period>> = { today: '1d', '7d': '7d', '30d': '30d' };

/** Longest range the API answers by hour (its `MAX_HOUR_RANGE_DAYS`; dates.test.ts checks they agree). */
export const MAX_HOUR_DAYS = 7;
/** Shortest ranges a week or a month bucket is offered for: fewer would draw one or two points of partial buckets. */
export const MIN_WEEK_DAYS = 14;
export const MIN_MONTH_DAYS = 60;
/** Longer ranges are drawn by month unless the reader picks another interval. */
const MONTH_DEFAULT_DAYS = 92;

/** An inclusive range of the site's days. */
export interface DayRange {
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * `day` moved by `n` calendar days.
 * @example shiftDay('2027-01-01', -1) // '2026-12-31'
 */
export const shiftDay = (day: string, n: number) => isoDay(dayMs(day) + n * DAY_MS);

/**
 * The first day of the month `n` months from `day`'s.
 * @example monthStart('2027-01-15', -1) // '2026-12-01'
 */
export function monthStart(day: string, n = 0): string {
  const [year, month] = [Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1 + n];
  return isoDay(Date.UTC(year, month, 1));
}

/** Days in an inclusive range. */
export const rangeDays = (range: DayRange) => Math.round((dayMs(range.to) - dayMs(range.from)) / DAY_MS) + 1;

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The calendar day of instant `ms` in time zone `zone`.
 * @example zonedDay(Date.parse('2026-11-19T23:30:00Z'), 'Europe/Berlin') // '2026-11-20'
 */
export function zonedDay(ms: number, zone: string): string {
  let format = dayFormats.get(zone);
  if (!format) dayFormats.set(zone, (format = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  const parts: Record<string, string> = {};
  for (const { type, value } of format.formatToParts(ms)) parts[type] = value;
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/**
 * The days a named range covers when the site's today is `today` (a custom range is its own).
 * Last 12 months: the eleven whole months before this one, and this one up to today.
 * @example rangeOf('last_month', '2027-01-15') // { from: '2026-12-01', to: '2026-12-31' }
 */
export function rangeOf(name: RangeName, today: string, custom?: DayRange): DayRange {
  switch (name) {
    case 'today': return { from: today, to: today };
    case 'yesterday': return { from: shiftDay(today, -1), to: shiftDay(today, -1) };
    case '7d': return { from: shiftDay(today, -6), to: today };
    case '30d': return { from: shiftDay(today, -29), to: today };
    case 'month': return { from: monthStart(today), to: today };
    case 'last_month': return { from: monthStart(today, -1), to: shiftDay(monthStart(today), -1) };
    case '12mo': return { from: monthStart(today, -11), to: today };
    case 'custom': return custom ?? { from: today, to: today };
  }
}

/**
 * What the API is asked for: its own period where it has one (so the range follows the
 * server's today exactly), else the computed days; undefined while a range that needs the
 * site's today (Yesterday, Month to date, ...) does not have it yet.
 * @example rangeQuery('yesterday', '2026-11-20') // { from: '2026-11-19', to: '2026-11-19' }
 */
export function rangeQuery(name: RangeName, today: string | undefined, custom?: DayRange): { period: Period } | DayRange | undefined {
  const period = API_PERIODS[name];
  if (period) return { period };
  if (name === 'custom') return custom;
  return today === undefined ? undefined : rangeOf(name, today);
}

/** Days a range covers; undefined while it needs the site's today and does not have it. */
export function daysOf(name: RangeName, today: string | undefined, custom?: DayRange): number | undefined {
  const fixed: Partial<Record<RangeName, number>> = { today: 1, yesterday: 1, '7d': 7, '30d': 30 };
  if (fixed[name] !== undefined) return fixed[name];
  const range = rangeQuery(name, today, custom);
  return range && 'from' in range ? rangeDays(range) : undefined;
}

/**
 * Intervals a range of `days` may be drawn by: hours up to 7 days (when the storage answers
 * hours), days from 2 days (a 1-day range by day is one point; offered only without hours),
 * weeks from 14 days, months from 60.
 * @example intervalsFor(30, true) // ['day', 'week']
 */
export function intervalsFor(days: number, hours: boolean): Interval[] {
  const allowed: Interval[] = [];
  if (hours && days <= MAX_HOUR_DAYS) allowed.push('hour');
  if (days >= 2 || !hours) allowed.push('day');
  if (days >= MIN_WEEK_DAYS) allowed.push('week');
  if (days >= MIN_MONTH_DAYS) allowed.push('month');
  return allowed;
}

/**
 * The interval a range is drawn by until the reader picks one: a day by hour, up to 92 days
 * by day, longer by month.
 * @example defaultInterval(1, true) // 'hour'
 */
export function defaultInterval(days: number, hours: boolean): Interval {
  if (days <= 1) return hours ? 'hour' : 'day';
  return days > MONTH_DEFAULT_DAYS ? 'month' : 'day';
}

/**
 * The interval a range of `days` is drawn by: the reader's pick while the range allows it,
 * else the range's default. The view keeps only a pick (undefined: the default), so a new
 * range starts from its own default unless the pick still fits.
 * @example intervalOf('hour', 30, true) // 'day' (hours are for up to 7 days)
 */
export function intervalOf(picked: Interval | undefined, days: number, hours: boolean): Interval {
  return picked !== undefined && intervalsFor(days, hours).includes(picked) ? picked : defaultInterval(days, hours);
}

/** The buckets of a timeseries up to now: `[0, shown)` have started; `current`, when set, is still running. */
export interface Elapsed {
  shown: number;
  current: number | undefined;
}

/**
 * Where `now` falls among the buckets of a timeseries of `range` in the site's `zone`. Hour
 * labels carry their offset (`2026-03-29T03:00:00+02:00`), so a day of daylight saving time
 * has 23 or 25 of them and each is one instant; day, week and month buckets are compared as
 * the site's days. A bucket the range cuts off (the last week of a past range) is complete.
 * @example elapsedBuckets(['2026-11-19', '2026-11-20'], 'day', range, now, 'Europe/Berlin') // { shown: 2, current: 1 } on Nov 20
 */
export function elapsedBuckets(labels: readonly string[], interval: Interval, range: DayRange, now: number, zone: string): Elapsed {
  let shown = 0;
  let current: number | undefined;
  if (interval === 'hour') {
    for (let i = 0; i < labels.length; i++) {
      const start = Date.parse(labels[i]!);
      if (!(start <= now)) break;
      shown = i + 1;
      const end = i + 1 < labels.length ? Date.parse(labels[i + 1]!) : start + 3_600_000;
      if (now < end) current = i;
    }
    return { shown, current };
  }
  const today = zonedDay(now, zone);
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i]!;
    const first = interval === 'month' ? `${label}-01` : label;
    const start = first < range.from ? range.from : first;
    if (start > today) break;
    shown = i + 1;
    const end = interval === 'day' ? shiftDay(first, 1) : interval === 'week' ? shiftDay(first, 7) : monthStart(first, 1);
    if (today < end && today <= range.to) current = i;
  }
  return { shown, current };
}

/** The server's clock as last reported, kept as an offset from this browser's. */
let offset = 0;

/** Sets the clock to the server's (`serverNow`, read at this browser's `receivedAt`). */
export function syncClock(serverNow: number, receivedAt = Date.now()): void {
  offset = serverNow - receivedAt;
}

/** Now by the server's clock. */
export const now = () => Date.now() + offset;
