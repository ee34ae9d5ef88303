import { describe, expect, it } from 'vitest';
import { memoizeRecent } from './memoize.js';

describe('memoizeRecent', () => {
  it('computes each key once while it stays in use, and forgets unused keys', () => {
    const computed: string[] = [];
    const upper = memoizeRecent((s: string) => (computed.push(s), s.toUpperCase()), 4);
    expect(['a', 'b', 'a', 'c', 'a', 'd', 'e'].map(upper).join('')).toBe('ABACADE');
    expect(computed).toEqual(['a', 'b', 'c', 'd', 'e']);
    // Generations of 2: 'a' was used recently and survives; 'b' has been dropped.
    upper('a');
    upper('b');
    expect(computed).toEqual(['a', 'b', 'c', 'd', 'e', 'b']);
  });
});
