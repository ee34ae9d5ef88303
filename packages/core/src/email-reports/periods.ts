/**
 * The periods of email reports in a site's time zone: a week is Monday to Sunday and is
 * sent from 06:00 on the Monday after it; a month is a calendar month, sent from 06:00 on
 * the 1st after it. The hour leaves the last evening's beacons time to be written, and
 * puts the mail in the inbox before the working day.
 */
import { isoWeekMonday } from '../reports/buckets.js';
import { dayStart, localDay, shiftDay } from '../time/zone.js';
import type { ReportKind } from './types.js';

/** Local hour of the Monday (the 1st) from which the week's (month's) report goes out. */
export const SEND_HOUR = 6;

/** Days of one period, inclusive. */
export interface DayPair {
  from: string;
  to: string;
}

/** A report's period: its days, the days it is compared with, and when it becomes due. */
export interface ReportPeriod extends DayPair {
  kind: ReportKind;
  /** The period before, of the same kind: the week before, the calendar month before. */
  previous: DayPair;
  /** The instant from which it is sent (ms): `SEND_HOUR` on the day after `to`, local time. */
  dueMs: number;
}

const firstOfMonth = (day: string) => `${day.slice(0, 8)}01`;
const monthBefore = (first: string) => firstOfMonth(shiftDay(first, -1));

/**
 * The period of `kind` that starts on `from` (a Monday, or a 1st).
 * @example periodOf('week', '2026-11-16', 'UTC') // { from: '2026-11-16', to: '2026-11-22', previous: { from: '2026-11-09', to: '2026-11-15' }, dueMs: Date.parse('2026-11-23T06:00:00Z'), kind: 'week' }
 */
export function periodOf(kind: ReportKind, from: string, zone: string): ReportPeriod {
  const next = kind === 'week' ? shiftDay(from, 7) : firstOfMonth(shiftDay(from, 31));
  const previousFrom = kind === 'week' ? shiftDay(from, -7) : monthBefore(from);
  return {
    kind, from, to: shiftDay(next, -1), previous: { from: previousFrom, to: shiftDay(from, -1) },
    // dayStart is the local midnight (DST-safe); the hours after it are real hours, as a clock on the wall shows them except on a DST morning.
    dueMs: dayStart(next, zone) + SEND_HOUR * 3_600_000,
  };
}

/**
 * The latest period of `kind` due at `nowMs` in `zone`: last week from Monday 06:00 on,
 * the week before until then (likewise months).
 * @example latestPeriod('week', Date.parse('2026-11-23T05:59:00Z'), 'UTC').from // '2026-11-09'
 */
export function latestPeriod(kind: ReportKind, nowMs: number, zone: string): ReportPeriod {
  const today = localDay(nowMs, zone);
  const current = kind === 'week' ? isoWeekMonday(today) : firstOfMonth(today);
  const last = periodOf(kind, kind === 'week' ? shiftDay(current, -7) : monthBefore(current), zone);
  return last.dueMs <= nowMs ? last : periodOf(kind, kind === 'week' ? shiftDay(last.from, -7) : monthBefore(last.from), zone);
}
