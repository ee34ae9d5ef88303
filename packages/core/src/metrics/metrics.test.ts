import { describe, expect, it } from 'vitest';
import { averageSeconds, bounceRate } from './metrics.js';
import { compareBytes, sortRows } from './order.js';

describe('metrics', () => {
  it('bounce rate: one decimal, halves up, 0 without sessions', () => {
    expect(bounceRate(1, 3)).toBe(33.3);
    expect(bounceRate(2, 3)).toBe(66.7);
    expect(bounceRate(1, 8)).toBe(12.5);
    expect(bounceRate(1, 16)).toBe(6.3); // 6.25 -> 6.3
    expect(bounceRate(0, 0)).toBe(0);
    expect(bounceRate(5, 5)).toBe(100);
  });

  it('average seconds from milliseconds', () => {
    expect(averageSeconds(1_420_000, 6)).toBe(236.7);
    expect(averageSeconds(150, 2)).toBe(0.1); // 0.075 s -> 0.1
    expect(averageSeconds(0, 0)).toBe(0);
  });

  it('orders metrics descending then names in byte order', () => {
    expect(compareBytes('Z', 'a')).toBeLessThan(0);
    expect(compareBytes('\uFF5E', '\u{1F600}')).toBeLessThan(0); // UTF-16 order would say the opposite
    const rows = [
      { name: 'iOS', visitors: 1 },
      { name: 'Windows', visitors: 2 },
      { name: 'Linux', visitors: 1 },
    ];
    expect(sortRows(rows, ['visitors'], ['name']).map((r) => r.name)).toEqual(['Windows', 'Linux', 'iOS']);
  });
});
