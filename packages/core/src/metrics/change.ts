/**
 * How a summary figure changed against an earlier range, defined once for the dashboard's
 * figures and the email reports: counts and the visit duration change relative to before
 * (`+12%`); the bounce rate, itself a percentage, changes in percentage points (`-3.5 pp`).
 */
import type { Summary } from '../types.js';

export type FigureChange =
  /** `(now - before) / before`: 0.12 is +12%. */
  | { unit: 'relative'; value: number }
  /** `now - before` in percentage points, one decimal place. */
  | { unit: 'points'; value: number };

/**
 * The change of `field` from `before` to `now`, or undefined when a count or duration had
 * nothing before (shown as "new": no ratio of zero exists).
 * @example figureChange('visitors', 112, 100) // { unit: 'relative', value: 0.12 }
 * @example figureChange('bounce_rate', 40, 43.5) // { unit: 'points', value: -3.5 }
 */
export function figureChange(field: keyof Summary, now: number, before: number): FigureChange | undefined {
  if (field === 'bounce_rate') return { unit: 'points', value: Math.round((now - before) * 10) / 10 };
  if (before === 0) return undefined;
  return { unit: 'relative', value: (now - before) / before };
}
