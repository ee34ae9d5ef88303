import { resolve } from 'node:path';
import type { Backend, BackendRole } from '../../backend.js';
import { createSqliteAccounts } from './sqlite-accounts.js';
import { createSqliteEmailReportStore } from './sqlite-email-reports.js';
import { createSqlitePeople } from './sqlite-people.js';
import { startCheckpointer } from './sqlite-checkpointer.js';
import { isSqliteFile } from './sqlite-file.js';
import { createSqliteSaltStore } from './sqlite-salts.js';
import { createSqliteShareStore } from './sqlite-shared-links.js';
import { createSqliteStore, type SqliteSynchronous } from './sqlite-storage.js';

export interface SqliteBackendOptions {
  /** Which connection this is (see `BackendRole`); default `tool`. */
  role?: BackendRole;
  /** The clock of the salts and of the rollups' hot days; default `Date.now`. For tests and benchmarks. */
  now?: () => number;
  /** Days of each site the column cache loads in the background after opening (`SqliteStorageOptions`); default by role (`WARM_DAYS`). */
  columnCacheWarmDays?: number;
  /** Memory of the column cache of filtered reads, bytes (`SqliteStorageOptions`; the server's `COLUMN_CACHE_MB`). */
  columnCacheBytes?: number;
  /** When a commit is durable (`SqliteStorageOptions.synchronous`; the server's `SQLITE_SYNCHRONOUS`); default `normal`. */
  synchronous?: SqliteSynchronous;
}


/**
 * WAL checkpoints by role, on a file: the server's connection (which also commits the
 * collector's group commits) never checkpoints itself (0), a thread of its own does it
 * (sqlite-checkpointer.ts), so a checkpoint never holds up the thread that answers requests;
 * a collector worker (an embedder's choice, see the collector README) checkpoints every ~40
 * MB (10,000 pages) instead of SQLite's ~4 MB, so a page rewritten by many small commits is
 * copied back once.
 */
const WAL_PAGES: Record<BackendRole, number | undefined> = { serve: 0, collect: 10_000, tool: undefined };

/**
 * Days of each site whose column cache a file's connection warms after opening, by role: a
 * server's, the last 30 (a dashboard's longest period), so the first filtered query after a
 * restart does not load them; the collector's worker never reads, and a tool (import, keys)
 * should not read in the background.
 */
const WARM_DAYS: Record<BackendRole, number> = { serve: 30, collect: 0, tool: 0 };

/**
 * The embedded backend: reports, accounts, keys and daily salts in one SQLite file (or
 * `:memory:`), on one connection. Several processes on one machine may share the file (WAL
 * mode); the collector commits in the request thread (group commits of a few milliseconds).
 *
 * @example
 * const backend = openSqliteBackend('./siteline.db');
 * const account = await backend.accounts.createAccount('Acme');
 * await backend.close();
 */
export function openSqliteBackend(path: string, options: SqliteBackendOptions = {}): Backend {
  const file = isSqliteFile(path);
  const role = options.role ?? 'tool';
  const store = createSqliteStore(path, {
    ...(options.now ? { now: options.now } : {}),
    ...(file && WAL_PAGES[role] !== undefined ? { walAutocheckpointPages: WAL_PAGES[role] } : {}),
    columnCacheWarmDays: options.columnCacheWarmDays ?? (file ? WARM_DAYS[role] : 0),
    ...(options.columnCacheBytes !== undefined ? { columnCacheBytes: options.columnCacheBytes } : {}),
    ...(options.synchronous ? { synchronous: options.synchronous } : {}),
  });
  const checkpointer = file && role === 'serve' ? startCheckpointer(path, options.synchronous ? { synchronous: options.synchronous } : {}) : undefined;
  return {
    kind: 'sqlite',
    description: file ? `sqlite:${resolve(path)}` : 'sqlite::memory:',
    storage: store,
    accounts: createSqliteAccounts(store.db),
    people: createSqlitePeople(store.db),
    shares: createSqliteShareStore(store.db),
    emailReports: createSqliteEmailReportStore(store.db),
    salts: createSqliteSaltStore(store.db, options.now ? { now: options.now } : {}),
    capabilities: { writerThread: false, sharedAcrossHosts: false },
    notices: store.notices,
    async close() {
      await store.close();
      await checkpointer?.close();
    },
  };
}
