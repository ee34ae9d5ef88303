import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testBackend } from '../../testing/backend.js';
import { openSqliteBackend } from './sqlite-backend.js';
import type { SqliteStore } from './sqlite-storage.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-sqlite-backend-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let now = Date.now();
testBackend({ name: 'sqlite file', open: async () => openSqliteBackend(join(dir, 'backend.db'), { now: () => now }), clock: { set: (ms) => (now = ms) } });

describe('openSqliteBackend', () => {
  const walPages = (backend: ReturnType<typeof openSqliteBackend>) => (backend.storage as SqliteStore).db.pragma('wal_autocheckpoint', { simple: true });

  it('declares a worker-thread writer for a file, not for :memory:, and never sharing across hosts', async () => {
    const file = openSqliteBackend(join(dir, 'caps.db'));
    const memory = openSqliteBackend(':memory:');
    expect([file.kind, file.description, file.capabilities]).toEqual(['sqlite', `sqlite:${join(dir, 'caps.db')}`, { writerThread: true, sharedAcrossHosts: false }]);
    expect([memory.description, memory.capabilities]).toEqual(['sqlite::memory:', { writerThread: false, sharedAcrossHosts: false }]);
    await file.close();
    await memory.close();
  });

  it("checkpoints the WAL by role: never on a server's request thread, rarely on the collector's, by default for tools", async () => {
    const path = join(dir, 'roles.db');
    const serve = openSqliteBackend(path, { role: 'serve' });
    const collect = openSqliteBackend(path, { role: 'collect' });
    const tool = openSqliteBackend(path);
    expect([walPages(serve), walPages(collect), walPages(tool)]).toEqual([0, 10_000, 1000]);
    // In memory there is no worker: the one connection checkpoints as SQLite does by default.
    const memory = openSqliteBackend(':memory:', { role: 'serve' });
    expect(walPages(memory)).toBe(1000);
    for (const backend of [serve, collect, tool, memory]) await backend.close();
  });

  it('closes everything it opened, once or twice', async () => {
    const backend = openSqliteBackend(join(dir, 'close.db'));
    await backend.close();
    await backend.close();
    await expect(backend.storage.listSites()).rejects.toThrow(/not open/);
    await expect(backend.accounts.listAccounts()).rejects.toThrow(/not open/);
  });
});
