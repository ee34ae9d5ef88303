import { describe, expect, it } from 'vitest';
import { permute, recordOrderOf, sameKeyPositions } from './sqlite-chunk-order.js';

describe('record order in a chunk', () => {
  it('sorts each run by (ts, seq), keeping equal keys in place; nothing when already in order', () => {
    // Runs [0, 3) and [3, 5): the first holds ts 5 with seq 9 then 2; the second is in order.
    const ts = Float64Array.of(5, 5, 7, 1, 2);
    const seq = Float64Array.of(9, 2, 1, 8, 1);
    const perm = recordOrderOf(Int32Array.of(0, 3, 5), ts, seq)!;
    expect([...perm]).toEqual([1, 0, 2, 3, 4]);
    expect([...permute(Float64Array.of(10, 11, 12, 13, 14), perm)]).toEqual([11, 10, 12, 13, 14]);
    expect(recordOrderOf(Int32Array.of(0, 2), Float64Array.of(1, 1), Float64Array.of(3, 3))).toBeUndefined();
    expect(recordOrderOf(Int32Array.of(0), new Float64Array(0), new Float64Array(0))).toBeUndefined();
  });

  it('marks the events whose ts and seq equal those of the one before them in their session', () => {
    // Sessions 0, 1, 0, 0, 1: session 0 has (5, 1), (5, 1), (6, 1); session 1 (5, 1) twice, apart.
    const session = Int32Array.of(0, 1, 0, 0, 1);
    expect([...sameKeyPositions(session, Float64Array.of(5, 5, 5, 6, 5), Float64Array.of(1, 1, 1, 1, 1), 2)]).toEqual([2, 4]);
    expect([...sameKeyPositions(session, Float64Array.of(5, 5, 5, 6, 5), Float64Array.of(1, 1, 2, 1, 3), 2)]).toEqual([]);
  });
});
