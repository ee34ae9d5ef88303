import { describe, expect, it } from 'vitest';
import { measureChange, SUMMARY_CHANGE } from './change.js';

describe('measureChange', () => {
  it('relative for counts and durations, points for rates, new from zero, nothing when both are zero', () => {
    expect(measureChange(112, 100, 'relative')).toEqual({ kind: 'relative', ratio: 0.12 });
    expect(measureChange(75, 100, 'relative')).toEqual({ kind: 'relative', ratio: -0.25 });
    expect(measureChange(40, 43.5, 'points')).toEqual({ kind: 'points', points: -3.5 });
    expect(measureChange(41.26, 40, 'points')).toEqual({ kind: 'points', points: 1.3 }); // one decimal place
    expect(measureChange(5, 0, 'relative')).toEqual({ kind: 'new' });
    expect(measureChange(25, 0, 'points')).toEqual({ kind: 'points', points: 25 });
    expect(measureChange(0, 0, 'relative')).toBeUndefined();
    expect(measureChange(0, 0, 'points')).toBeUndefined();
    expect(Object.entries(SUMMARY_CHANGE).filter(([, kind]) => kind === 'points').map(([field]) => field)).toEqual(['bounce_rate']);
  });
});
