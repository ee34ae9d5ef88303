import { resolve } from 'node:path';
import type { Backend, BackendRole } from '../../backend.js';
import { createSqliteAccounts } from './sqlite-accounts.js';
import { createSqliteEmailReportStore } from './sqlite-email-reports.js';
import { createSqlitePeople } from './sqlite-people.js';
import { isSqliteFile } from './sqlite-file.js';
import { createSqliteSaltStore } from './sqlite-salts.js';
import { createSqliteShareStore } from './sqlite-shared-links.js';
import { createSqliteStore } from './sqlite-storage.js';

export interface SqliteBackendOptions {
  /** Which connection this is (see `BackendRole`); default `tool`. */
  role?: BackendRole;
  /** The clock of the salts and of the rollups' hot days; default `Date.now`. For tests and benchmarks. */
  now?: () => number;
  /** Days of each site the column cache loads in the background after opening (`SqliteStorageOptions`); default by role (`WARM_DAYS`). */
  columnCacheWarmDays?: number;
  /** Memory of the column cache of filtered reads, bytes (`SqliteStorageOptions`; the server's `COLUMN_CACHE_MB`). */
  columnCacheBytes?: number;
}


/**
 * WAL checkpoints by role, on a file: the request thread of a server whose collector writes
 * on a worker never checkpoints (0), so a checkpoint of up to ~40 MB never runs on the thread
 * that answers requests; the worker checkpoints every ~40 MB (10,000 pages) instead of
 * SQLite's ~4 MB, so a page rewritten by many small commits is copied back once.
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
 * mode); the collector may write on a worker thread's own connection when it is a file.
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
  });
  return {
    kind: 'sqlite',
    description: file ? `sqlite:${resolve(path)}` : 'sqlite::memory:',
    storage: store,
    accounts: createSqliteAccounts(store.db),
    people: createSqlitePeople(store.db),
    shares: createSqliteShareStore(store.db),
    emailReports: createSqliteEmailReportStore(store.db),
    salts: createSqliteSaltStore(store.db, options.now ? { now: options.now } : {}),
    capabilities: { writerThread: file, sharedAcrossHosts: false },
    close: () => store.close(),
  };
}
