import { describe, expect, it } from 'vitest';
import { dayStart, daysBetween, isValidTimeZone, localDay, runsOf, shiftDay } from './zone.js';

describe('time zones', () => {
  it('local day of an instant', () => {
    expect(localDay(Date.parse('2026-11-01T23:30:00Z'), 'Europe/Berlin')).toBe('2026-11-02');
    expect(localDay(Date.parse('2026-11-02T04:30:00Z'), 'America/New_York')).toBe('2026-11-01');
    expect(localDay(Date.parse('2026-11-02T04:30:00Z'), 'UTC')).toBe('2026-11-02');
    expect(localDay(Date.parse('2026-11-01T18:29:00Z'), 'Asia/Kolkata')).toBe('2026-11-01');
    expect(localDay(Date.parse('2026-11-01T18:30:00Z'), 'Asia/Kolkata')).toBe('2026-11-02');
  });

  it('start of a local day, including DST changes', () => {
    expect(dayStart('2026-11-02', 'UTC')).toBe(Date.parse('2026-11-02T00:00:00Z'));
    expect(dayStart('2026-03-29', 'Europe/Berlin')).toBe(Date.parse('2026-03-28T23:00:00Z'));
    expect(dayStart('2026-03-30', 'Europe/Berlin')).toBe(Date.parse('2026-03-29T22:00:00Z'));
    expect(dayStart('2026-11-01', 'America/New_York')).toBe(Date.parse('2026-11-01T04:00:00Z'));
    expect(dayStart('2026-11-02', 'America/New_York')).toBe(Date.parse('2026-11-02T05:00:00Z'));
    // Midnight skipped by a DST jump: the day starts at 01:00 local.
    expect(dayStart('2018-11-04', 'America/Sao_Paulo')).toBe(Date.parse('2018-11-04T03:00:00Z'));
    expect(dayStart('2026-11-02', 'Asia/Kathmandu')).toBe(Date.parse('2026-11-01T18:15:00Z'));
  });

  it('day arithmetic and validation', () => {
    expect(shiftDay('2026-02-28', 1)).toBe('2026-03-01');
    expect(shiftDay('2026-03-01', -29)).toBe('2026-01-31');
    expect(daysBetween('2026-12-30', '2027-01-02')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02']);
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });

  it('runs of consecutive days cross month and year ends, and a gap of one day starts a new run', () => {
    expect(runsOf([])).toEqual([]);
    expect(runsOf(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-03', '2027-02-28', '2027-03-01'])).toEqual([
      { from: '2026-12-30', to: '2027-01-01' },
      { from: '2027-01-03', to: '2027-01-03' },
      { from: '2027-02-28', to: '2027-03-01' },
    ]);
  });
});
