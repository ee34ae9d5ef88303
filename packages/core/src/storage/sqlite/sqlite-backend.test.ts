import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { importEvents } from '../../import/import.js';
import { parseQuery } from '../../query/parse.js';
import { REPORTS } from '../../reports/index.js';
import { createSite } from '../../sites/sites.js';
import { testBackend } from '../../testing/backend.js';
import { ALPHA, ndjson } from '../../testing/datasets.js';
import { openSqliteBackend } from './sqlite-backend.js';
import type { SqliteStore } from './sqlite-storage.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-sqlite-backend-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let now = Date.now();
testBackend({
  name: 'sqlite file',
  open: async () => openSqliteBackend(join(dir, 'backend.db'), { now: () => now }),
  clock: { set: (ms) => (now = ms) },
  transactions: true,
  async countRows(table, column, value) {
    const db = new Database(join(dir, 'backend.db'), { readonly: true });
    try {
      return db.prepare(`SELECT COUNT(*) FROM ${table} WHERE ${column} = ?`).pluck().get(value) as number;
    } finally {
      db.close();
    }
  },
});

describe('openSqliteBackend', () => {
  const walPages = (backend: ReturnType<typeof openSqliteBackend>) => (backend.storage as SqliteStore).db.pragma('wal_autocheckpoint', { simple: true });

  it('declares no worker-thread writer (the request thread commits) and no sharing across hosts, file or memory', async () => {
    const file = openSqliteBackend(join(dir, 'caps.db'));
    const memory = openSqliteBackend(':memory:');
    expect([file.kind, file.description, file.capabilities]).toEqual(['sqlite', `sqlite:${join(dir, 'caps.db')}`, { writerThread: false, sharedAcrossHosts: false }]);
    expect([memory.description, memory.capabilities]).toEqual(['sqlite::memory:', { writerThread: false, sharedAcrossHosts: false }]);
    await file.close();
    await memory.close();
  });

  it("checkpoints the WAL by role: never on a server's request thread (its checkpointer thread does), rarely on a collector worker's, by default for tools", async () => {
    const path = join(dir, 'roles.db');
    const serve = openSqliteBackend(path, { role: 'serve' });
    const collect = openSqliteBackend(path, { role: 'collect' });
    const tool = openSqliteBackend(path);
    expect([walPages(serve), walPages(collect), walPages(tool)]).toEqual([0, 10_000, 1000]);
    // The server's writes leave the WAL to its checkpointer: 2,000 commits of fresh pages, then at most a few checkpoint periods.
    const db = (serve.storage as SqliteStore).db;
    db.exec('CREATE TABLE scratch (b BLOB)');
    const insert = db.prepare('INSERT INTO scratch VALUES (zeroblob(4000))');
    for (let i = 0; i < 2000; i++) insert.run();
    const frames = () => (db.pragma('wal_checkpoint(NOOP)') as { log: number; checkpointed: number }[])[0]!;
    const deadline = Date.now() + 10_000;
    while (frames().checkpointed < frames().log && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(frames().checkpointed).toBe(frames().log);
    expect(frames().log).toBeGreaterThan(1000); // past SQLite's own threshold: only the checkpointer copied them back
    // In memory there is no worker: the one connection checkpoints as SQLite does by default.
    const memory = openSqliteBackend(':memory:', { role: 'serve' });
    expect(walPages(memory)).toBe(1000);
    for (const backend of [serve, collect, tool, memory]) await backend.close();
  });

  it("warms the column cache by role: a server's connection loads each site's last 30 days in the background, others none", async () => {
    const path = join(dir, 'warm.db');
    const NOW = Date.parse('2026-11-05T15:00:00Z');
    const writer = openSqliteBackend(path, { now: () => NOW });
    await createSite(writer.storage, { id: 'ST-alpha', name: 'Alpha', timezone: 'UTC', domain: 'alpha.example' });
    await importEvents(writer.storage, ndjson(ALPHA));
    const stats = (backend: ReturnType<typeof openSqliteBackend>) => (backend.storage as SqliteStore).columnCacheStats();
    const warmed = (backend: ReturnType<typeof openSqliteBackend>) => (backend.storage as SqliteStore).columnCacheWarmed;

    const serve = openSqliteBackend(path, { role: 'serve', now: () => NOW });
    const collect = openSqliteBackend(path, { role: 'collect', now: () => NOW });
    await Promise.all([warmed(serve), warmed(collect), warmed(writer)]);
    // 10-07..11-05, the empty days too.
    expect(stats(serve)).toMatchObject({ loads: 30, tooLarge: 0 });
    expect(stats(serve).bytes).toBeGreaterThan(0);
    expect([stats(collect), stats(writer)]).toEqual([{ loads: 0, bytes: 0, tooLarge: 0 }, { loads: 0, bytes: 0, tooLarge: 0 }]);
    // A dashboard's first filtered query after the restart finds its days loaded.
    // GB or FR (no FR in the data): two values, which slices do not answer, so the column cache does.
    const query = parseQuery('stats', { site_id: 'ST-alpha', period: '30d', filters: JSON.stringify([['is', 'country', ['GB', 'FR']]]) });
    expect(await REPORTS.stats(serve.storage, query, { now: NOW })).toMatchObject({ visitors: 2, sessions: 3, pageviews: 4 }); // v1 on 11-02 (S1: 2 views, S2: 1) and 11-03 (S5: 1)
    expect(stats(serve).loads).toBe(30);

    // A week the warming does not cover, asked for as a server starts: answered from the raw tables before any day is
    // loaded, then its days load before the warming's.
    const starting = openSqliteBackend(path, { role: 'serve', now: () => NOW });
    const before = parseQuery('stats', { site_id: 'ST-alpha', from: '2026-09-01', to: '2026-09-07', filters: JSON.stringify([['is', 'country', ['GB', 'FR']]]) });
    expect(await REPORTS.stats(starting.storage, before, { now: NOW })).toMatchObject({ visitors: 0, sessions: 0 });
    const atAnswer = stats(starting).loads;
    expect(atAnswer).toBeLessThanOrEqual(1); // the warming's first day at most: the answer waited for no load
    await (starting.storage as SqliteStore).columnCacheFilled();
    expect(stats(starting).loads - atAnswer).toBeGreaterThanOrEqual(7); // the week's seven days
    await warmed(starting);
    expect(stats(starting).loads).toBe(37);
    await starting.close();
    // A query that needs the day the warming is waiting to load (today, its first) lets it go first: it does not wait for itself.
    const again = openSqliteBackend(path, { role: 'serve', now: () => NOW });
    const first = REPORTS.stats(again.storage, before, { now: NOW });
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    const week = parseQuery('stats', { site_id: 'ST-alpha', from: '2026-10-30', to: '2026-11-05', filters: JSON.stringify([['is', 'country', ['GB', 'FR']]]) });
    const [, joined] = await Promise.all([first, REPORTS.stats(again.storage, week, { now: NOW })]);
    expect(joined).toMatchObject({ visitors: 2, sessions: 3, pageviews: 4 });
    await warmed(again);
    await again.close();

    // Closing stops it after the day it is loading.
    const closed = openSqliteBackend(path, { role: 'serve', now: () => NOW });
    await closed.close();
    await warmed(closed);
    expect(stats(closed).loads).toBe(0);
    for (const backend of [serve, collect, writer]) await backend.close();
  });

  it('closes everything it opened, once or twice', async () => {
    const backend = openSqliteBackend(join(dir, 'close.db'));
    await backend.close();
    await backend.close();
    await expect(backend.storage.listSites()).rejects.toThrow(/not open/);
    await expect(backend.accounts.listAccounts()).rejects.toThrow(/not open/);
  });
});
