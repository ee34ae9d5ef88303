import type { DayRange } from '@siteline/core';

/**
 * ClickHouse `Date` holds 1970-01-01 to 2105-12-31 on 18.16 (2149-06-06 on
 * current servers); the smaller window is used so both behave the same.
 */
export const MIN_DAY = '1970-01-01';
export const MAX_DAY = '2105-12-31';

const DAY_MS = 86_400_000;

/** `day` plus `n` calendar days, `YYYY-MM-DD`. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** UTC calendar day of an instant. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The most days one query reads where its rows grow with the days it covers (a row per day and
 * visitor, or per session): a longer read goes in parts of this many days, one after the
 * other, and adds them up. At 100M events a year, twelve months in one query asked 1.9 GB.
 */
export const DAYS_PER_QUERY = 31;

/** The days `from` .. `to` in consecutive ranges of at most `size` days. */
export function dayParts(from: string, to: string, size = DAYS_PER_QUERY): { from: string; to: string }[] {
  const parts: { from: string; to: string }[] = [];
  for (let start = from; start <= to; start = addDays(start, size)) {
    const end = addDays(start, size - 1);
    parts.push({ from: start, to: end < to ? end : to });
  }
  return parts;
}

export const clampDay = (day: string): string => (day < MIN_DAY ? MIN_DAY : day > MAX_DAY ? MAX_DAY : day);

/** True when no storable day lies in the range, so a query can answer empty at once. */
export const outsideDateType = (range: DayRange): boolean => range.to < MIN_DAY || range.from > MAX_DAY;

/**
 * 18.16 prints day 0 (1970-01-01) as `0000-00-00`; current servers print
 * `1970-01-01`. Both read back as the real day.
 */
export const readDay = (value: string): string => (value === '0000-00-00' ? MIN_DAY : value);
