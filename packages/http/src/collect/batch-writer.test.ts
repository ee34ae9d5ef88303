import type { StoredEvent } from '@siteline/core';
import { describe, expect, it } from 'vitest';
import { BatchWriter } from './batch-writer.js';

const event = (seq: number) => ({ seq }) as StoredEvent;
const seqs = (batches: StoredEvent[][]) => batches.map((b) => b.map((e) => e.seq));

/** A storage that records batches and fails while `failing` is set. */
function fakeStorage() {
  const state = { batches: [] as StoredEvent[][], failing: false };
  return Object.assign(state, {
    async writeEvents(events: readonly StoredEvent[]) {
      if (state.failing) throw new Error('disk full');
      state.batches.push([...events]);
    },
  });
}

describe('BatchWriter', () => {
  it('writes a full batch at once and the rest after maxDelayMs', async () => {
    const storage = fakeStorage();
    const writer = new BatchWriter(storage, { maxEvents: 2, maxDelayMs: 30 });
    writer.push(event(1));
    writer.push(event(2));
    await new Promise((r) => setImmediate(r));
    writer.push(event(3));
    expect(seqs(storage.batches)).toEqual([[1, 2]]);
    expect(writer.pending).toBe(1);
    await new Promise((r) => setTimeout(r, 80));
    expect(seqs(storage.batches)).toEqual([[1, 2], [3]]);
    expect(writer.pending).toBe(0);
  });

  it('flush writes everything now, in acceptance order', async () => {
    const storage = fakeStorage();
    const writer = new BatchWriter(storage, { maxEvents: 2, maxDelayMs: 60_000 });
    for (let i = 1; i <= 5; i++) writer.push(event(i));
    await writer.flush();
    expect(seqs(storage.batches).flat()).toEqual([1, 2, 3, 4, 5]);
    expect(writer.pending).toBe(0);
  });

  it('keeps a failed batch queued, reports full, and writes it once storage recovers', async () => {
    const storage = fakeStorage();
    const logs: unknown[] = [];
    const writer = new BatchWriter(storage, { maxEvents: 2, maxDelayMs: 60_000, maxPending: 3 }, (e) => logs.push(e));
    storage.failing = true;
    for (let i = 1; i <= 3; i++) writer.push(event(i));
    await expect(writer.flush()).rejects.toThrow('disk full');
    expect(logs).toHaveLength(1); // the background write of the first full batch
    expect(writer.pending).toBe(3);
    expect(writer.full).toBe(true);
    storage.failing = false;
    await writer.flush();
    expect(seqs(storage.batches).flat()).toEqual([1, 2, 3]);
    expect(writer.full).toBe(false);
    writer.stop();
  });
});
