/**
 * How the store's reads put parts together: range sums of disjoint runs of days (daily
 * visitors add up across days), and the estimated memory of a result kept between reads.
 */
import { shiftDay } from '../../time/zone.js';
import type { BucketTotals, DayRange, GoalTotals } from '../types.js';

/** Sums rows that share a key (additive metrics; visitors are per-day distinct counts). Copies, never mutates, its input. */
export function sumBy<T extends object>(rows: T[], key: (row: T) => string): T[] {
  const sums = new Map<string, T>();
  for (const row of rows) {
    const k = key(row);
    const sum = sums.get(k);
    if (!sum) sums.set(k, { ...row });
    else for (const [field, value] of Object.entries(row)) if (typeof value === 'number') (sum as Record<string, number>)[field]! += value;
  }
  return [...sums.values()];
}

/** Estimated memory of a read's result: its strings (two bytes a character) and about 64 bytes per row or object. */
export function resultBytes(value: unknown): number {
  if (typeof value === 'string') return value.length * 2 + 16;
  if (Array.isArray(value)) return value.reduce((sum: number, v) => sum + resultBytes(v), 64);
  if (value && typeof value === 'object') return Object.values(value).reduce((sum: number, v) => sum + resultBytes(v), 64);
  return 8;
}

/** A read of the column cache: over the cached days (the others pushed to `raw`), over a run of raw days, and the merge of the parts. */
export interface Scanned<T> {
  columns: (raw: string[]) => T;
  raw: (range: DayRange) => T;
  merge: (parts: T[]) => T;
}

/** Hour buckets of disjoint days: a bucket lies in one day, so its parts add up. */
export function sumBuckets(parts: BucketTotals[][]): BucketTotals[] {
  const byStart = new Map<number, BucketTotals>();
  for (const row of parts.flat()) {
    const sum = byStart.get(row.start);
    if (!sum) byStart.set(row.start, { ...row });
    else {
      sum.visitors += row.visitors;
      sum.sessions += row.sessions;
      sum.pageviews += row.pageviews;
    }
  }
  return [...byStart.values()];
}

/** Funnel step visitors of disjoint days (daily distinct counts: they add up, step by step). */
export function sumSteps(parts: number[][]): number[] {
  return parts[0]!.map((_, k) => parts.reduce((sum, p) => sum + p[k]!, 0));
}

/** Goal totals of disjoint days (visitors are daily distinct counts, so they add up). */
export function sumGoals(parts: GoalTotals[][]): GoalTotals[] {
  return parts[0]!.map((_, g) => ({
    visitors: parts.reduce((sum, p) => sum + p[g]!.visitors, 0),
    conversions: parts.reduce((sum, p) => sum + p[g]!.conversions, 0),
  }));
}
