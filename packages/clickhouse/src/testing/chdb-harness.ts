/**
 * Test harness (used only by tests and the bench): ClickHouse 26.x in this
 * process through chdb. chdb keeps one data directory per process and must
 * not run in a worker thread, so every chdb test file runs in its own forked
 * process (vitest project `clickhouse-chdb`); all stores of a process share
 * one throw-away directory, each in its own database.
 */
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import type { ClientConnection } from '../clickhouse-storage.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

const require = createRequire(import.meta.url);

/** Why chdb cannot run here, or undefined when it can. */
export const chdbUnavailable: string | undefined = (() => {
  if (!isMainThread) return 'chdb crashes in worker threads; run chdb tests in forked processes';
  try {
    require.resolve('chdb/connection');
    return undefined;
  } catch {
    return 'the chdb package is not installed (npm install -D chdb)';
  }
})();

let dir: string | undefined;

/**
 * A connection on this process's chdb data directory (made on first use,
 * removed at exit), for `createClickHouseStorage({ connection })`.
 *
 * @example
 * const storage = createClickHouseStorage({ connection: chdbConnection(), database: 'conformance_1' });
 */
export function chdbConnection(): ClientConnection {
  if (chdbUnavailable) throw new Error(chdbUnavailable);
  if (!dir) {
    const made = mkdtempSync(join(tmpdir(), 'siteline-chdb-'));
    dir = made;
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  }
  const { createChdbConnection } = require('chdb/connection') as typeof import('chdb/connection');
  // chdb types its connection against @clickhouse/client-common, the client bundles an equal copy of those types.
  return createChdbConnection({ path: dir }) as unknown as ClientConnection;
}

/** A client on this process's chdb data directory, for tests that query it directly. */
export const chdbClient = (): ClickHouseClient => createClient({ connection: chdbConnection() });
