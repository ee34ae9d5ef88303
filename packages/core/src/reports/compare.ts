import { isoDay, rangeLength, shiftDay } from '../time/zone.js';
import type { Compare } from '../types.js';

/**
 * The compared days of query-extensions.md section 2: `previous_period` is the
 * range of the same number of days ending the day before `from`;
 * `year_over_year` the same calendar dates one year earlier, 29 February
 * becoming 28 February.
 * @example comparedDays('2028-02-29', '2028-03-01', 'year_over_year') // { from: '2027-02-28', to: '2027-03-01' }
 */
export function comparedDays(from: string, to: string, mode: Compare): { from: string; to: string } {
  if (mode === 'previous_period') return { from: shiftDay(from, -rangeLength(from, to)), to: shiftDay(from, -1) };
  return { from: yearEarlier(from), to: yearEarlier(to) };
}

function yearEarlier(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (date.getUTCMonth() === 1 && date.getUTCDate() === 29) date.setUTCDate(28);
  date.setUTCFullYear(date.getUTCFullYear() - 1);
  return isoDay(date.getTime());
}

/**
 * Each main row with `comparison`: the metric fields of the compared row with the
 * same key, zeros when the compared range has none. Rows, order and limit stay the
 * main range's.
 */
export function attachComparison<Row extends object, Metrics extends object>(
  rows: Row[],
  compared: Row[],
  key: (row: Row) => string,
  metrics: (row: Row | undefined) => Metrics,
): (Row & { comparison: Metrics })[] {
  const byKey = new Map(compared.map((row) => [key(row), row]));
  return rows.map((row) => ({ ...row, comparison: metrics(byKey.get(key(row))) }));
}
