import { describe, expect, it } from 'vitest';
import type { LogEntry } from './log.js';
import { exitGracefullyOnSignals } from './shutdown.js';

// A signal nobody else in the test process listens to; process.emit runs the handlers without a real signal.
const SIGNAL = 'SIGUSR2';
const signal = () => process.emit(SIGNAL, SIGNAL);
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

function setup(close: () => Promise<void>, timeoutMs = 1_000) {
  const exits: number[] = [];
  const logs: LogEntry[] = [];
  const remove = exitGracefullyOnSignals(close, { timeoutMs, signals: [SIGNAL], exit: (code) => void exits.push(code), logger: (e) => logs.push(e) });
  return { exits, logs, remove };
}

describe('exitGracefullyOnSignals', () => {
  it('closes, then exits 0', async () => {
    let closed = false;
    const { exits, logs, remove } = setup(async () => void (closed = true));
    signal();
    await tick();
    expect({ closed, exits, msgs: logs.map((l) => l.msg) }).toEqual({ closed: true, exits: [0], msgs: ['shutting down'] });
    remove();
  });

  it('exits 1 at once on a second signal, or when closing takes too long or fails', async () => {
    const never = () => new Promise<void>(() => {});
    const twice = setup(never);
    signal();
    signal();
    expect(twice.exits).toEqual([1]);
    expect(twice.logs.at(-1)).toMatchObject({ level: 'warn', msg: 'forced exit', reason: `second ${SIGNAL}` });
    twice.remove();

    const slow = setup(never, 30);
    signal();
    await tick(60);
    expect(slow.exits).toEqual([1]);
    expect(slow.logs.at(-1)).toMatchObject({ msg: 'forced exit', reason: 'requests still running after 30 ms' });
    slow.remove();

    const failing = setup(() => Promise.reject(new Error('disk gone')));
    signal();
    await tick();
    expect(failing.exits).toEqual([1]);
    expect(failing.logs.at(-1)).toMatchObject({ level: 'error', msg: 'shutdown failed', error: 'disk gone' });
    failing.remove();
  });
});
