import { describe, expect, it } from 'vitest';
import { latestPeriod, periodOf } from './periods.js';

describe('email report periods', () => {
  it('a week is Monday to Sunday, due Monday 06:00 local; before that the week before is the latest', () => {
    // Berlin is UTC+1 in November: 06:00 local is 05:00 UTC.
    expect(periodOf('week', '2026-11-16', 'Europe/Berlin')).toEqual({
      kind: 'week', from: '2026-11-16', to: '2026-11-22', previous: { from: '2026-11-09', to: '2026-11-15' }, dueMs: Date.parse('2026-11-23T05:00:00Z'),
    });
    expect(latestPeriod('week', Date.parse('2026-11-23T04:59:59Z'), 'Europe/Berlin').from).toBe('2026-11-09');
    expect(latestPeriod('week', Date.parse('2026-11-23T05:00:00Z'), 'Europe/Berlin').from).toBe('2026-11-16');
    expect(latestPeriod('week', Date.parse('2026-11-29T23:59:59Z'), 'UTC').from).toBe('2026-11-16'); // Sunday night: the week is not over
    // Monday 00:30 in Tokyo is still Sunday in UTC: the zone decides the day.
    expect(latestPeriod('week', Date.parse('2026-11-22T15:30:00Z'), 'Asia/Tokyo').from).toBe('2026-11-09');
    expect(latestPeriod('week', Date.parse('2026-11-22T21:00:00Z'), 'Asia/Tokyo').from).toBe('2026-11-16'); // 06:00 Monday in Tokyo
  });

  it('a month is a calendar month, due the 1st 06:00 local, compared with the calendar month before (February, a year boundary)', () => {
    expect(periodOf('month', '2026-03-01', 'UTC')).toEqual({
      kind: 'month', from: '2026-03-01', to: '2026-03-31', previous: { from: '2026-02-01', to: '2026-02-28' }, dueMs: Date.parse('2026-04-01T06:00:00Z'),
    });
    expect(periodOf('month', '2028-02-01', 'UTC')).toMatchObject({ to: '2028-02-29', previous: { from: '2028-01-01', to: '2028-01-31' } });
    expect(periodOf('month', '2027-01-01', 'UTC')).toMatchObject({ to: '2027-01-31', previous: { from: '2026-12-01', to: '2026-12-31' } });
    expect(latestPeriod('month', Date.parse('2027-01-01T05:59:59Z'), 'UTC').from).toBe('2026-11-01');
    expect(latestPeriod('month', Date.parse('2027-01-01T06:00:00Z'), 'UTC').from).toBe('2026-12-01');
  });

  it('a week spanning the autumn clock change in Berlin is due at 06:00 local of the Monday after (UTC+1 then)', () => {
    // 2026-10-25 (Sunday) Berlin goes from UTC+2 to UTC+1; the week 10-19..10-25 is due Monday 10-26 06:00 CET = 05:00 UTC.
    expect(periodOf('week', '2026-10-19', 'Europe/Berlin').dueMs).toBe(Date.parse('2026-10-26T05:00:00Z'));
    // The week before ended in summer time: due 10-19 06:00 CEST = 04:00 UTC.
    expect(periodOf('week', '2026-10-12', 'Europe/Berlin').dueMs).toBe(Date.parse('2026-10-19T04:00:00Z'));
  });
});
