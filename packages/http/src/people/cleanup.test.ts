import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLEANUP_INTERVAL_MS, openSqliteBackend, People } from '@siteline/core';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { LogEntry } from '../log.js';
import { FIRST_CLEANUP_MS, scheduleCleanup } from './cleanup.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-cleanup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.useRealTimers());

describe('scheduleCleanup', () => {
  it('removes ended sessions a minute after the start, then every hour, until stopped; logs each run', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'] });
    const backend = openSqliteBackend(join(dir, 'cleanup.db'));
    const people = new People(backend.people);
    const logs: LogEntry[] = [];
    const liveRows = async (hash: string) => ((await backend.people.session(hash)) ? 1 : 0);
    const stop = scheduleCleanup(people, (entry) => logs.push(entry));

    const first = await people.startSession({ keyId: 'community', accountId: '' });
    await people.endSession(first.id);
    await vi.advanceTimersByTimeAsync(FIRST_CLEANUP_MS - 1);
    expect(await liveRows(first.session.id_hash)).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await liveRows(first.session.id_hash)).toBe(0);
    expect(logs.map((l) => l.msg)).toEqual(['expired sessions and links removed']);

    const second = await people.startSession({ keyId: 'community', accountId: '' });
    await people.endSession(second.id);
    await vi.advanceTimersByTimeAsync(CLEANUP_INTERVAL_MS);
    expect(await liveRows(second.session.id_hash)).toBe(0);
    expect(logs).toHaveLength(2);

    stop();
    const third = await people.startSession({ keyId: 'community', accountId: '' });
    await people.endSession(third.id);
    await vi.advanceTimersByTimeAsync(3 * CLEANUP_INTERVAL_MS);
    expect(await liveRows(third.session.id_hash)).toBe(1);
    expect(logs).toHaveLength(2);
    await backend.close();
  });

  it('logs a failed run as an error and runs again at the next interval', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'] });
    const backend = openSqliteBackend(join(dir, 'closed.db'));
    const people = new People(backend.people);
    await backend.close(); // every run now fails: the database is closed
    const logs: LogEntry[] = [];
    const stop = scheduleCleanup(people, (entry) => logs.push(entry));
    await vi.advanceTimersByTimeAsync(FIRST_CLEANUP_MS + CLEANUP_INTERVAL_MS);
    stop();
    expect(logs.map((l) => [l.level, l.msg])).toEqual([
      ['error', 'removing expired sessions and links failed'],
      ['error', 'removing expired sessions and links failed'],
    ]);
    expect(String(logs[0]!.error)).toContain('database connection is not open');
  });
});
