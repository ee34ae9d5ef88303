import type { StoredEvent } from '@siteline/core';
import { describe, expect, it } from 'vitest';
import { BatchWriter } from './batch-writer.js';

const event = (seq: number) => ({ seq }) as StoredEvent;
const seqs = (batches: StoredEvent[][]) => batches.map((b) => b.map((e) => e.seq));
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A storage that records batches, holds each write until `release()` when `gated`, and fails while `failing`. */
function fakeStorage() {
  const state = { batches: [] as StoredEvent[][], failing: false, gated: false, releases: [] as (() => void)[] };
  return Object.assign(state, {
    async writeEvents(events: readonly StoredEvent[]) {
      if (state.gated) await new Promise<void>((resolve) => state.releases.push(resolve));
      if (state.failing) throw new Error('disk full');
      state.batches.push([...events]);
    },
    release() {
      state.releases.shift()?.();
    },
  });
}

describe('BatchWriter (group commit)', () => {
  it('answers each write once the write holding it has committed, and puts everything that arrived meanwhile in the next one', async () => {
    const storage = Object.assign(fakeStorage(), { gated: true });
    const writer = new BatchWriter(storage);
    const answered: number[] = [];
    const write = (seq: number) => writer.write([event(seq)]).then((kept) => kept && answered.push(seq));
    const first = write(1);
    await turn(); // the first write starts on the next turn, alone
    const rest = [write(2), write(3), write(4)];
    await turn();
    expect({ batches: seqs(storage.batches), answered, pending: writer.pending }).toEqual({ batches: [], answered: [], pending: 4 });
    storage.release();
    await first;
    expect({ batches: seqs(storage.batches), answered }).toEqual({ batches: [[1]], answered: [1] });
    await turn();
    storage.release();
    await Promise.all(rest);
    expect({ batches: seqs(storage.batches), answered, pending: writer.pending }).toEqual({ batches: [[1], [2, 3, 4]], answered: [1, 2, 3, 4], pending: 0 });
  });

  it('never puts more than maxEvents in one write, and never splits one write call', async () => {
    const storage = fakeStorage();
    const writer = new BatchWriter(storage, { maxEvents: 3 });
    const kept = [writer.write([event(1), event(2)]), writer.write([event(3), event(4)]), writer.write([event(5)]), writer.write([event(6), event(7), event(8), event(9)])];
    expect(await Promise.all(kept)).toEqual([true, true, true, true]);
    expect(seqs(storage.batches)).toEqual([[1, 2], [3, 4, 5], [6, 7, 8, 9]]);
  });

  it('answers false for exactly the events of a failed write, logs the run of failures once and its end once', async () => {
    const storage = fakeStorage();
    const logs: { level: string; msg: string }[] = [];
    const writer = new BatchWriter(storage, {}, (entry) => logs.push(entry as { level: string; msg: string }));
    expect(await writer.write([event(1)])).toBe(true);
    storage.failing = true;
    expect(await writer.write([event(2)])).toBe(false);
    expect(await writer.write([event(3)])).toBe(false);
    storage.failing = false;
    expect(await writer.write([event(4)])).toBe(true);
    expect(seqs(storage.batches)).toEqual([[1], [4]]);
    expect(logs.map((l) => [l.level, l.msg])).toEqual([
      ['error', 'collect write failed; its beacons were answered 503'],
      ['info', 'collect writes work again'],
    ]);
  });

  it('is full while maxPending events wait, and flush writes everything queued', async () => {
    const storage = Object.assign(fakeStorage(), { gated: true });
    const writer = new BatchWriter(storage, { maxEvents: 2, maxPending: 3, maxDelayMs: 60_000 });
    const kept = [writer.write([event(1), event(2)]), writer.write([event(3)])];
    expect(writer.full).toBe(true);
    const flushed = writer.flush();
    storage.release();
    await turn();
    storage.release();
    await flushed;
    expect(await Promise.all(kept)).toEqual([true, true]);
    expect({ batches: seqs(storage.batches), full: writer.full }).toEqual({ batches: [[1, 2], [3]], full: false });
  });
});
