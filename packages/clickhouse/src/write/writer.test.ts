import { describe, expect, it } from 'vitest';
import { tsvPieces } from './tsv.js';

describe('tsvPieces', () => {
  it('makes whole lines in order, 5,000 a piece, each piece ending in a newline, only as they are read', () => {
    const rows = Array.from({ length: 12_001 }, (_, i) => i);
    let made = 0;
    const pieces = tsvPieces(rows, (n) => (made++, `row\t${n}`));
    expect(made).toBe(0);
    const first = pieces.next().value!;
    expect(made).toBe(5_000);
    const all = [first, ...pieces];
    expect(all.map((p) => p.split('\n').length - 1)).toEqual([5_000, 5_000, 2_001]);
    expect(all.every((p) => p.endsWith('\n'))).toBe(true);
    expect(all.join('')).toBe(rows.map((n) => `row\t${n}\n`).join(''));
    expect([...tsvPieces([], String)]).toEqual([]);
  });
});
