import { type Backend, BackendError, type BackendRole, openSqliteBackend } from '@siteline/core';
import type { DatabaseLocation } from './database-url.js';

/**
 * Opens the backend a configuration names: the one function through which the server,
 * the collector's worker and every `siteline` command reach their data. SQLite is built in;
 * ClickHouse comes from `@siteline/clickhouse` (an optional peer dependency, loaded only
 * when a `clickhouse://` location is configured). The result's `capabilities` tell the
 * server what it can do; it never asks which engine it got.
 *
 * Throws `BackendError` with what to fix (unreachable server, refused credentials, unknown
 * cluster, package not installed); the message never contains the password.
 *
 * @example
 * const config = loadConfig(process.cwd());
 * const backend = await openBackend(config.database, { role: 'serve' });
 */
export async function openBackend(location: DatabaseLocation, options: OpenBackendOptions = {}): Promise<Backend> {
  switch (location.engine) {
    case 'sqlite':
      return openSqliteBackend(location.path, { ...options, ...(location.synchronous ? { synchronous: location.synchronous } : {}) });
    case 'clickhouse': {
      const { openClickHouseBackend } = await loadClickHouse();
      const { engine: _, ...where } = location;
      // The column cache is the SQLite store's; ClickHouse reads its own columns.
      const { columnCacheBytes: __, ...rest } = options;
      return openClickHouseBackend({ ...where, ...rest });
    }
  }
}

export interface OpenBackendOptions {
  /** Which connection this is (see `BackendRole`); default `tool`. */
  role?: BackendRole;
  /** The clock of salts and hot days; default `Date.now`. For tests and benchmarks. */
  now?: () => number;
  /** SQLite: memory of the column cache of filtered reads, bytes (`COLUMN_CACHE_MB`); ignored by ClickHouse. */
  columnCacheBytes?: number;
  /**
   * ClickHouse: told of each daily build or count that failed (its days are read raw meanwhile,
   * same answers, slower), at most once a minute for the same failure; `siteline serve` logs it.
   */
  onBackgroundFailure?: (failure: { work: string; error: string; repeated: number }) => void;
}

async function loadClickHouse(): Promise<typeof import('@siteline/clickhouse')> {
  try {
    return await import('@siteline/clickhouse');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new BackendError('DATABASE_URL names a ClickHouse server, but @siteline/clickhouse is not installed: run `npm install @siteline/clickhouse`.');
  }
}
