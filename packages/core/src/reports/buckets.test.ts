import { describe, expect, it } from 'vitest';
import { dayStart } from '../time/zone.js';
import { dayBuckets, hourBuckets, isoWeekMonday } from './buckets.js';
import { comparedDays } from './compare.js';

const hoursOf = (day: string, zone: string) => hourBuckets(dayStart(day, zone), dayStart(`${day.slice(0, 8)}${String(Number(day.slice(8)) + 1).padStart(2, '0')}`, zone), zone);

describe('time buckets', () => {
  it('hours of a day where daylight saving time ends: the repeated hour twice, with its two offsets', () => {
    // Europe/Berlin 2026-10-25: 03:00 CEST (+02:00) becomes 02:00 CET (+01:00); the day has 25 hours.
    const { starts, labels } = hoursOf('2026-10-25', 'Europe/Berlin');
    expect(labels).toHaveLength(25);
    expect(labels.slice(0, 4)).toEqual(['2026-10-25T00:00:00+02:00', '2026-10-25T01:00:00+02:00', '2026-10-25T02:00:00+02:00', '2026-10-25T02:00:00+01:00']);
    expect(labels[24]).toBe('2026-10-25T23:00:00+01:00');
    // 02:00+02:00 is 00:00Z, 02:00+01:00 is 01:00Z.
    expect(starts.slice(2, 4)).toEqual([Date.parse('2026-10-25T00:00:00Z'), Date.parse('2026-10-25T01:00:00Z')]);
  });

  it('hours of a day where daylight saving time starts: the skipped hour has no bucket', () => {
    // America/New_York 2026-03-08: 02:00 EST jumps to 03:00 EDT; 23 hours.
    const { labels } = hoursOf('2026-03-08', 'America/New_York');
    expect(labels).toHaveLength(23);
    expect(labels.slice(1, 3)).toEqual(['2026-03-08T01:00:00-05:00', '2026-03-08T03:00:00-04:00']);
  });

  it('hours of 30- and 45-minute offsets start on the half or quarter hour in UTC', () => {
    const kolkata = hoursOf('2026-11-02', 'Asia/Kolkata');
    expect(kolkata.labels).toHaveLength(24);
    expect(kolkata.labels[10]).toBe('2026-11-02T10:00:00+05:30');
    expect(kolkata.starts[10]).toBe(Date.parse('2026-11-02T04:30:00Z'));
    const kathmandu = hoursOf('2026-11-02', 'Asia/Kathmandu');
    expect(kathmandu.labels[0]).toBe('2026-11-02T00:00:00+05:45');
    expect(kathmandu.starts[1]).toBe(Date.parse('2026-11-01T19:15:00Z'));
    // Australia/Adelaide ends DST on 2026-04-05: 03:00 +10:30 becomes 02:00 +09:30.
    expect(hoursOf('2026-04-05', 'Australia/Adelaide').labels.slice(2, 4)).toEqual(['2026-04-05T02:00:00+10:30', '2026-04-05T02:00:00+09:30']);
    // Lord Howe Island shifts by 30 minutes: 02:00 +11:00 becomes 01:30 +10:30, so 01:00 +10:30 is a 30-minute bucket.
    const howe = hoursOf('2026-04-05', 'Australia/Lord_Howe');
    expect(howe.labels.slice(1, 4)).toEqual(['2026-04-05T01:00:00+11:00', '2026-04-05T01:00:00+10:30', '2026-04-05T02:00:00+10:30']);
    expect(howe.starts[3]! - howe.starts[2]!).toBe(30 * 60_000);
  });

  it('ISO weeks start on Monday; months are YYYY-MM; buckets sum only the days of the range', () => {
    expect(isoWeekMonday('2026-11-01')).toBe('2026-10-26'); // a Sunday
    expect(isoWeekMonday('2026-11-02')).toBe('2026-11-02'); // a Monday
    expect(isoWeekMonday('2027-01-01')).toBe('2026-12-28');
    const days = [
      { day: '2026-10-31', visitors: 1, pageviews: 2, sessions: 1 },
      { day: '2026-11-01', visitors: 2, pageviews: 3, sessions: 2 },
      { day: '2026-11-02', visitors: 4, pageviews: 8, sessions: 5 },
      { day: '2026-11-09', visitors: 7, pageviews: 7, sessions: 7 }, // outside the range: not counted
    ];
    expect(dayBuckets('2026-10-31', '2026-11-03', days, 'week')).toEqual([
      { date: '2026-10-26', visitors: 3, pageviews: 5, sessions: 3 },
      { date: '2026-11-02', visitors: 4, pageviews: 8, sessions: 5 },
    ]);
    expect(dayBuckets('2026-10-31', '2026-11-03', days, 'month')).toEqual([
      { date: '2026-10', visitors: 1, pageviews: 2, sessions: 1 },
      { date: '2026-11', visitors: 6, pageviews: 11, sessions: 7 },
    ]);
  });

  it('compared ranges: the same number of days before, or the same dates a year earlier (29 February -> 28 February)', () => {
    expect(comparedDays('2026-11-02', '2026-11-03', 'previous_period')).toEqual({ from: '2026-10-31', to: '2026-11-01' });
    expect(comparedDays('2026-03-01', '2026-03-31', 'previous_period')).toEqual({ from: '2026-01-29', to: '2026-02-28' });
    expect(comparedDays('2028-02-29', '2028-02-29', 'year_over_year')).toEqual({ from: '2027-02-28', to: '2027-02-28' });
    expect(comparedDays('2028-02-28', '2028-03-01', 'year_over_year')).toEqual({ from: '2027-02-28', to: '2027-03-01' });
    expect(comparedDays('2025-02-28', '2025-03-01', 'year_over_year')).toEqual({ from: '2024-02-28', to: '2024-03-01' });
  });
});
