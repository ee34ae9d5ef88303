/**
 * The dashboard's date rules, each against days and hours worked out by hand: ranges on
 * month and year boundaries, the intervals each length allows, and which buckets have
 * started (daylight saving days in the site's zone included).
 */
import { hourBuckets, MAX_HOUR_RANGE_DAYS } from '@siteline/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { daysOf, defaultInterval, elapsedBuckets, intervalOf, intervalsFor, MAX_HOUR_DAYS, monthStart, now, rangeDays, rangeOf, rangeQuery, shiftDay, syncClock, zonedDay } from './dates.js';

const BERLIN = 'Europe/Berlin';

describe('ranges', () => {
  it('Today, Yesterday, 7 and 30 days end on the site\'s today; yesterday of a 1 January is 31 December', () => {
    expect(rangeOf('today', '2026-11-20')).toEqual({ from: '2026-11-20', to: '2026-11-20' });
    expect(rangeOf('yesterday', '2027-01-01')).toEqual({ from: '2026-12-31', to: '2026-12-31' });
    expect(rangeOf('7d', '2026-11-20')).toEqual({ from: '2026-11-14', to: '2026-11-20' });
    expect(rangeOf('30d', '2026-03-01')).toEqual({ from: '2026-01-31', to: '2026-03-01' });
  });

  it('Month to date on the 1st is that one day (drawn by hour)', () => {
    const range = rangeOf('month', '2026-12-01');
    expect(range).toEqual({ from: '2026-12-01', to: '2026-12-01' });
    expect(defaultInterval(rangeDays(range), true)).toBe('hour');
    expect(rangeOf('month', '2026-12-17')).toEqual({ from: '2026-12-01', to: '2026-12-17' });
  });

  it('Last month across a year boundary, and a leap February', () => {
    expect(rangeOf('last_month', '2027-01-15')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(rangeOf('last_month', '2027-01-01')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(rangeOf('last_month', '2028-03-10')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(rangeDays(rangeOf('last_month', '2028-03-10'))).toBe(29);
  });

  it('Last 12 months: the eleven whole months before this one and this one up to today', () => {
    // Dec 2025 (31) + Jan-Oct 2026 (31+28+31+30+31+30+31+31+30+31 = 304) + 20 days of November.
    expect(rangeOf('12mo', '2026-11-20')).toEqual({ from: '2025-12-01', to: '2026-11-20' });
    expect(rangeDays(rangeOf('12mo', '2026-11-20'))).toBe(355);
    expect(rangeOf('12mo', '2027-01-31')).toEqual({ from: '2026-02-01', to: '2027-01-31' });
  });

  it('asks the API for its own period where it has one, else for the computed days; waits for today when it needs it', () => {
    expect(rangeQuery('today', undefined)).toEqual({ period: '1d' });
    expect(rangeQuery('30d', undefined)).toEqual({ period: '30d' });
    expect(rangeQuery('yesterday', '2026-11-20')).toEqual({ from: '2026-11-19', to: '2026-11-19' });
    expect(rangeQuery('month', undefined)).toBeUndefined();
    expect(rangeQuery('custom', undefined, { from: '2026-11-02', to: '2026-11-08' })).toEqual({ from: '2026-11-02', to: '2026-11-08' });
    expect([daysOf('7d', undefined), daysOf('12mo', undefined), daysOf('month', '2026-11-20'), daysOf('custom', undefined, { from: '2026-11-02', to: '2026-11-08' })]).toEqual([7, undefined, 20, 7]);
  });

  it('day and month arithmetic', () => {
    expect(shiftDay('2026-02-28', 1)).toBe('2026-03-01');
    expect(shiftDay('2028-02-28', 1)).toBe('2028-02-29');
    expect(monthStart('2026-01-31', -1)).toBe('2025-12-01');
    expect(monthStart('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('the site\'s today is its own calendar day, not the reader\'s or UTC\'s', () => {
    const late = Date.parse('2026-11-19T23:30:00Z');
    expect(zonedDay(late, BERLIN)).toBe('2026-11-20'); // UTC+1
    expect(zonedDay(late, 'America/New_York')).toBe('2026-11-19'); // UTC-5
    expect(zonedDay(Date.parse('2026-11-19T10:00:00Z'), 'Pacific/Kiritimati')).toBe('2026-11-20'); // UTC+14
  });
});

describe('intervals', () => {
  it('hours up to 7 days (the API\'s limit), days from 2, weeks from 14, months from 60', () => {
    expect(MAX_HOUR_DAYS).toBe(MAX_HOUR_RANGE_DAYS);
    expect(intervalsFor(1, true)).toEqual(['hour']);
    expect(intervalsFor(1, false)).toEqual(['day']); // a storage without hours: one point beats nothing
    expect(intervalsFor(7, true)).toEqual(['hour', 'day']);
    expect(intervalsFor(8, true)).toEqual(['day']);
    expect(intervalsFor(14, true)).toEqual(['day', 'week']);
    expect(intervalsFor(31, true)).toEqual(['day', 'week']); // Month on 30 days: one or two partial months, not offered
    expect(intervalsFor(60, true)).toEqual(['day', 'week', 'month']);
  });

  it('a day is drawn by hour, up to 92 days by day, longer by month', () => {
    expect([1, 2, 7, 30, 92, 93, 355].map((d) => defaultInterval(d, true))).toEqual(['hour', 'day', 'day', 'day', 'day', 'month', 'month']);
    expect(defaultInterval(1, false)).toBe('day');
  });

  it('a pick is kept while the range allows it; Hour then 30 days gives days, not a refused query', () => {
    expect(intervalOf('hour', 30, true)).toBe('day');
    expect(intervalOf('hour', 7, true)).toBe('hour');
    expect(intervalOf('week', 355, true)).toBe('week');
    expect(intervalOf('month', 30, true)).toBe('day');
    expect(intervalOf(undefined, 1, true)).toBe('hour');
    expect(intervalOf('day', 1, true)).toBe('hour');
  });
});

describe('buckets up to now', () => {
  const hours = (day: string, next: string) => hourBuckets(Date.parse(`${day}T00:00:00${offset(day)}`), Date.parse(`${next}T00:00:00${offset(next)}`), BERLIN).labels;
  // Offsets of local midnight in Berlin: summer time from 29 March 02:00 to 25 October 03:00.
  const offset = (day: string) => (day > '2026-03-29' && day <= '2026-10-25' ? '+02:00' : '+01:00');
  const today = { from: '2026-11-20', to: '2026-11-20' };

  it('Today by hour at 12:00 in Berlin: 13 buckets have started, the 13th (12:00) is running, none after', () => {
    const labels = hours('2026-11-20', '2026-11-21');
    expect(labels).toHaveLength(24);
    expect(elapsedBuckets(labels, 'hour', today, Date.parse('2026-11-20T11:00:00Z'), BERLIN)).toEqual({ shown: 13, current: 12 });
    expect(elapsedBuckets(labels, 'hour', today, Date.parse('2026-11-20T10:59:59Z'), BERLIN)).toEqual({ shown: 12, current: 11 });
    expect(elapsedBuckets(labels, 'hour', today, Date.parse('2026-11-19T22:59:59Z'), BERLIN)).toEqual({ shown: 0, current: undefined });
    // Yesterday's hours, seen today: all over.
    expect(elapsedBuckets(hours('2026-11-19', '2026-11-20'), 'hour', today, Date.parse('2026-11-20T11:00:00Z'), BERLIN)).toEqual({ shown: 24, current: undefined });
  });

  it('the spring day (23 hours, no 02:00): at 12:30 CEST, 12 buckets have started', () => {
    const labels = hours('2026-03-29', '2026-03-30');
    expect(labels.slice(0, 3)).toEqual(['2026-03-29T00:00:00+01:00', '2026-03-29T01:00:00+01:00', '2026-03-29T03:00:00+02:00']);
    expect(labels).toHaveLength(23);
    // 00, 01, then 03 to 12: 2 + 10 buckets; 12:00 CEST is 10:00 UTC.
    expect(elapsedBuckets(labels, 'hour', { from: '2026-03-29', to: '2026-03-29' }, Date.parse('2026-03-29T10:30:00Z'), BERLIN)).toEqual({ shown: 12, current: 11 });
  });

  it('the autumn day (25 hours, 02:00 twice): at 02:30 CET, the second 02:00 is running', () => {
    const labels = hours('2026-10-25', '2026-10-26');
    expect(labels.slice(0, 5)).toEqual(['2026-10-25T00:00:00+02:00', '2026-10-25T01:00:00+02:00', '2026-10-25T02:00:00+02:00', '2026-10-25T02:00:00+01:00', '2026-10-25T03:00:00+01:00']);
    expect(labels).toHaveLength(25);
    expect(elapsedBuckets(labels, 'hour', { from: '2026-10-25', to: '2026-10-25' }, Date.parse('2026-10-25T01:30:00Z'), BERLIN)).toEqual({ shown: 4, current: 3 });
    expect(elapsedBuckets(labels, 'hour', { from: '2026-10-25', to: '2026-10-25' }, Date.parse('2026-10-25T00:30:00Z'), BERLIN)).toEqual({ shown: 3, current: 2 });
  });

  it('days: today is the running bucket, by the site\'s calendar (30 minutes into Nov 20 in Berlin is still Nov 19 in UTC)', () => {
    const labels = Array.from({ length: 30 }, (_, i) => shiftDay('2026-10-22', i)); // Oct 22 .. Nov 20
    const range = { from: '2026-10-22', to: '2026-11-20' };
    expect(elapsedBuckets(labels, 'day', range, Date.parse('2026-11-19T23:30:00Z'), BERLIN)).toEqual({ shown: 30, current: 29 });
    expect(elapsedBuckets(labels, 'day', range, Date.parse('2026-11-19T22:59:00Z'), BERLIN)).toEqual({ shown: 29, current: 28 });
  });

  it('weeks and months: the one holding today is running; a past range\'s last bucket is complete', () => {
    const weeks = ['2026-10-19', '2026-10-26', '2026-11-02', '2026-11-09', '2026-11-16']; // Mondays of Oct 22 (Thu) .. Nov 20 (Fri)
    const at = Date.parse('2026-11-20T11:00:00Z');
    expect(elapsedBuckets(weeks, 'week', { from: '2026-10-22', to: '2026-11-20' }, at, BERLIN)).toEqual({ shown: 5, current: 4 });
    expect(elapsedBuckets(['2026-11-02', '2026-11-09', '2026-11-16'], 'week', { from: '2026-11-02', to: '2026-11-18' }, at, BERLIN)).toEqual({ shown: 3, current: undefined });
    const months = Array.from({ length: 12 }, (_, i) => monthStart('2025-12-01', i).slice(0, 7)); // 2025-12 .. 2026-11
    expect(elapsedBuckets(months, 'month', { from: '2025-12-01', to: '2026-11-20' }, at, BERLIN)).toEqual({ shown: 12, current: 11 });
    const october = Array.from({ length: 31 }, (_, i) => shiftDay('2026-10-01', i));
    expect(elapsedBuckets(october, 'day', { from: '2026-10-01', to: '2026-10-31' }, at, BERLIN)).toEqual({ shown: 31, current: undefined });
    // A custom range reaching past today: the days after today are not drawn.
    const ahead = Array.from({ length: 8 }, (_, i) => shiftDay('2026-11-18', i));
    expect(elapsedBuckets(ahead, 'day', { from: '2026-11-18', to: '2026-11-25' }, at, BERLIN)).toEqual({ shown: 3, current: 2 });
  });
});

describe('the clock', () => {
  afterEach(() => {
    vi.useRealTimers();
    syncClock(Date.now());
  });

  it('runs on the server\'s time, advancing with this browser\'s', () => {
    vi.useFakeTimers({ now: Date.parse('2030-01-01T00:00:00Z') });
    syncClock(Date.parse('2026-11-20T11:00:00Z'));
    expect(now()).toBe(Date.parse('2026-11-20T11:00:00Z'));
    vi.advanceTimersByTime(90_000);
    expect(now()).toBe(Date.parse('2026-11-20T11:01:30Z'));
  });
});
