/**
 * How a figure changed against an earlier range, defined once for the dashboard and the
 * email reports: counts and durations change relative to before (`+12%`); rates, themselves
 * percentages, change in percentage points (`-3.5 pp`); a count that rose from zero is "new";
 * nothing in either range is no change at all.
 */
import type { Summary } from '../types.js';

/** How a metric's change is told: relative for counts and durations, in percentage points for rates. */
export type ChangeKind = 'relative' | 'points';

/** The summary figures' kinds of change. */
export const SUMMARY_CHANGE: Readonly<Record<keyof Summary, ChangeKind>> = {
  visitors: 'relative', pageviews: 'relative', sessions: 'relative', bounce_rate: 'points', avg_duration: 'relative',
};

export type Change =
  /** `(now - before) / before`: 0.12 is +12%. */
  | { kind: 'relative'; ratio: number }
  /** `now - before` in percentage points, one decimal place. */
  | { kind: 'points'; points: number }
  /** A count or duration that rose from zero: no ratio exists. */
  | { kind: 'new' };

/**
 * The change from `before` to `now`, or undefined when both are zero (nothing happened in either range).
 * @example measureChange(112, 100, 'relative') // { kind: 'relative', ratio: 0.12 }
 * @example measureChange(40, 43.5, 'points') // { kind: 'points', points: -3.5 }
 */
export function measureChange(now: number, before: number, kind: ChangeKind): Change | undefined {
  if (now === 0 && before === 0) return undefined;
  if (kind === 'points') return { kind, points: Math.round((now - before) * 10) / 10 };
  if (before === 0) return { kind: 'new' };
  return { kind, ratio: (now - before) / before };
}
