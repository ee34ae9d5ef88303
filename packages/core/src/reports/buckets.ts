import { tzOffset } from '@date-fns/tz';
import type { DayTotals } from '../storage/types.js';
import { daysBetween, shiftDay } from '../time/zone.js';
import type { TimeseriesRow } from '../types.js';

const QUARTER_HOUR = 15 * 60_000;
const HOUR = 3_600_000;

/**
 * The local hours of `[startMs, endMs)` in `zone` (query-extensions.md section 3):
 * a bucket is a run of instants with the same local hour and the same UTC offset,
 * so the hour repeated when daylight saving time ends is two buckets and a skipped
 * hour none. Offsets (30 and 45 minutes included) change on quarter hours, so the
 * range is walked in quarter hours. Labels are the local start of the hour with the
 * offset of the bucket, `YYYY-MM-DDTHH:00:00±HH:MM`.
 *
 * @example
 * hourBuckets(Date.parse('2026-03-29T00:00:00+01:00'), Date.parse('2026-03-30T00:00:00+02:00'), 'Europe/Berlin').labels.slice(1, 3)
 * // ['2026-03-29T01:00:00+01:00', '2026-03-29T03:00:00+02:00']
 */
export function hourBuckets(startMs: number, endMs: number, zone: string): { starts: number[]; labels: string[] } {
  const starts: number[] = [];
  const labels: string[] = [];
  let last = '';
  for (let t = startMs; t < endMs; t += QUARTER_HOUR) {
    const offset = tzOffset(zone, new Date(t));
    const hourStart = Math.floor((t + offset * 60_000) / HOUR) * HOUR;
    const key = `${hourStart} ${offset}`;
    if (key === last) continue;
    last = key;
    starts.push(t);
    labels.push(`${new Date(hourStart).toISOString().slice(0, 19)}${offsetLabel(offset)}`);
  }
  return { starts, labels };
}

/** `+05:30`, `-04:00`, `+00:00` from minutes east of UTC. */
function offsetLabel(minutes: number): string {
  const abs = Math.abs(Math.round(minutes));
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * The Monday of the ISO week (Monday to Sunday) of `day`.
 * @example isoWeekMonday('2026-11-01') // '2026-10-26' (a Sunday's week began the Monday before)
 */
export function isoWeekMonday(day: string): string {
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  return shiftDay(day, -weekday);
}

const LABELS = { day: (day: string) => day, week: isoWeekMonday, month: (day: string) => day.slice(0, 7) };

/**
 * Timeseries rows of `[from, to]` by day, ISO week or month from the storage's day
 * rows: every bucket overlapping the range, ascending, zeros included; a bucket
 * sums only the days of the range (visitors too: daily visitors summed, so the
 * buckets add up to the range's total).
 */
export function dayBuckets(from: string, to: string, days: readonly DayTotals[], interval: keyof typeof LABELS): TimeseriesRow[] {
  const byDay = new Map(days.map((row) => [row.day, row]));
  const rows: TimeseriesRow[] = [];
  for (const day of daysBetween(from, to)) {
    const date = LABELS[interval](day);
    let row = rows[rows.length - 1];
    if (row?.date !== date) rows.push((row = { date, visitors: 0, pageviews: 0, sessions: 0 }));
    const totals = byDay.get(day);
    if (totals) {
      row.visitors += totals.visitors;
      row.pageviews += totals.pageviews;
      row.sessions += totals.sessions;
    }
  }
  return rows;
}
