import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoredEvent, WritePlan } from '@siteline/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../log.js';
import { openSpool, type Spool } from './spool.js';

const event = (seq: number) => ({ seq, path: `/p${seq}` }) as StoredEvent;
type Plan = WritePlan & { seqs: number[] };

/** A store that plans a write as the list of its events' seqs and records what it applied, refusing while `down`. */
function fakeStore() {
  const state = { applied: [] as { seqs: number[]; resume: boolean }[], planned: [] as number[][], down: false, failApply: false };
  return Object.assign(state, {
    async planWrite(events: readonly StoredEvent[]): Promise<Plan> {
      if (state.down) throw new Error('connect ECONNREFUSED 127.0.0.1:8123');
      state.planned.push(events.map((e) => e.seq));
      return { format: 'fake/1', seqs: events.map((e) => e.seq) };
    },
    async applyWrite(plan: WritePlan, options: { resume: boolean }) {
      if (state.down) throw new Error('connect ECONNREFUSED 127.0.0.1:8123');
      if (state.failApply) throw new Error('the server went away part-way');
      state.applied.push({ seqs: (plan as Plan).seqs, resume: options.resume });
    },
  });
}

describe('spool', () => {
  const dirs: string[] = [];
  const spools: Spool[] = [];
  const open = (dir: string, store: ReturnType<typeof fakeStore>, logs: LogEntry[] = [], maxBytes = 1 << 20, database = 'clickhouse 127.0.0.1:8123/siteline') => {
    const spool = openSpool({ dir, database, maxBytes, storage: store, batch: { maxEvents: 3, maxDelayMs: 60_000 }, logger: (e) => logs.push(e) });
    spools.push(spool);
    return spool;
  };
  const scratch = () => {
    const dir = mkdtempSync(join(tmpdir(), 'siteline-spool-'));
    dirs.push(dir);
    return join(dir, 'spool');
  };
  afterEach(async () => {
    for (const spool of spools.splice(0)) await spool.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps each write on disk before answering it, and sends the events on in order, maxEvents whole writes at a time', async () => {
    const store = fakeStore();
    const spool = open(scratch(), store);
    const kept = await Promise.all([spool.write([event(1), event(2)]), spool.write([event(3)])]);
    expect({ kept, pending: spool.pending.events, applied: store.applied }).toEqual({ kept: [true, true], pending: 3, applied: [] }); // 60 s to gather
    expect(await spool.write([event(4), event(5)])).toBe(true);
    await spool.flush();
    // One append per turn: [1, 2, 3] went to disk together, then [4, 5]; inserts take whole appends up to 3 events.
    expect(store.applied).toEqual([{ seqs: [1, 2, 3], resume: false }, { seqs: [4, 5], resume: false }]);
    expect(spool.pending).toEqual({ events: 0, bytes: 0 });
  });

  it('while the store refuses: accepts up to maxBytes, then answers false; logs the outage once; drains in order once it is back', async () => {
    const store = Object.assign(fakeStore(), { down: true });
    const logs: LogEntry[] = [];
    const bytes = JSON.stringify([event(1)]).length;
    const spool = open(scratch(), store, logs, 3 * bytes);
    const answers = [];
    for (let seq = 1; seq <= 5; seq++) answers.push(await spool.write([event(seq)]));
    expect(answers).toEqual([true, true, true, false, false]);
    expect(spool.full).toBe(true);
    await expect(spool.flush()).rejects.toThrow('ECONNREFUSED');
    store.down = false;
    await spool.flush();
    expect(store.applied).toEqual([{ seqs: [1, 2, 3], resume: false }]);
    expect(spool.full).toBe(false);
    expect(await spool.write([event(6)])).toBe(true);
    await spool.flush();
    expect(store.applied.map((a) => a.seqs)).toEqual([[1, 2, 3], [6]]);
    // One line when each trouble starts and one when it ends, however many beacons and retries were between.
    expect(logs.map((l) => [l.level, l.msg])).toEqual([
      ['error', 'collect: the store refused the spool\'s insert; beacons are kept in the spool until it takes them'],
      ['error', 'collect: the spool is full (COLLECT_SPOOL_MB); beacons answered 503 until the store takes spooled ones'],
      ['info', 'collect: the store takes the spool\'s inserts again'],
      ['info', 'collect: the spool has room again'],
    ]);
  });

  it('after a crash part-way through an insert: the next owner applies the saved plan again (resume) before anything else, then the rest in order', async () => {
    const dir = scratch();
    const store = Object.assign(fakeStore(), { failApply: true });
    const first = open(dir, store);
    for (const seq of [1, 2, 3]) expect(await first.write([event(seq)])).toBe(true);
    // Three events: the insert starts at once, is planned and saved, and fails part-way (and again on each retry).
    while (store.planned.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await first.write([event(4)])).toBe(true);
    await first.close(); // the process dies: everything stays on disk
    store.failApply = false;
    const second = open(dir, store);
    expect(second.pending.events).toBe(4);
    await second.replay();
    expect({ planned: store.planned, applied: store.applied }).toEqual({
      planned: [[1, 2, 3], [4]], // [1, 2, 3] planned once, before the crash: its saved plan is what is applied again
      applied: [{ seqs: [1, 2, 3], resume: true }, { seqs: [4], resume: false }],
    });
    expect(second.pending).toEqual({ events: 0, bytes: 0 });
  });

  it('has one owner: a second open of the same directory is refused while the first holds it, and allowed once it is closed', async () => {
    const dir = scratch();
    const store = fakeStore();
    const first = open(dir, store);
    expect(() => open(dir, store)).toThrow(`The spool directory ${dir} (COLLECT_SPOOL_DIR) is in use by another siteline process (pid ${process.pid} on`);
    await first.close();
    expect(open(dir, store).pending.events).toBe(0);
  });

  it('is tied to its database: holding beacons for one, it refuses another; empty, it takes the new one', async () => {
    const dir = scratch();
    const store = Object.assign(fakeStore(), { down: true });
    const first = open(dir, store, [], 1 << 20, 'clickhouse a:8123/siteline');
    expect(await first.write([event(1)])).toBe(true);
    await first.close();
    expect(() => open(dir, store, [], 1 << 20, 'clickhouse b:8123/siteline')).toThrow(
      `The spool directory ${dir} (COLLECT_SPOOL_DIR) holds 1 beacons for clickhouse a:8123/siteline, not for clickhouse b:8123/siteline: start siteline with that DATABASE_URL to send them, or move the directory away.`,
    );
    store.down = false;
    const again = open(dir, store, [], 1 << 20, 'clickhouse a:8123/siteline');
    await again.replay();
    await again.close();
    expect(open(dir, store, [], 1 << 20, 'clickhouse b:8123/siteline').pending.events).toBe(0);
  });
});
