import type { ClickHouseClient } from '@clickhouse/client';
import { connect } from './connection/client.js';
import { type Backend, BackendError, type BackendRole } from '@siteline/core';
import { createClickHouseAccounts } from './people/accounts.js';
import { createClickHousePeople, type EveryNode } from './people/people.js';
import { createClickHouseStorage, type ClickHouseStorageOptions } from './clickhouse-storage.js';
import { sqlIdent, sqlString } from './connection/escape.js';
import { storageTableName } from './schema/schema.js';
import { createClickHouseSaltStore } from './sites/salts.js';
import { createClickHouseEmailReportStore } from './sharing/email-reports.js';
import { createClickHouseShareStore } from './sharing/shared-links.js';
import { insertSettings } from './write/settings.js';

export interface ClickHouseBackendOptions extends Pick<ClickHouseStorageOptions, 'username' | 'password' | 'database' | 'cluster' | 'nodes' | 'requestTimeoutMs' | 'onBackgroundFailure'> {
  /** HTTP(S) address of a server, e.g. `http://127.0.0.1:8123`. */
  url: string;
  /**
   * Which connection this is. A server's (`serve`) leaves the background counts not started
   * when it closes (`leaveCountsOnClose`), so a shutdown is not held by an import's queue.
   */
  role?: BackendRole;
  /** Clock of the daily salts; default `Date.now`. For tests. */
  now?: () => number;
}

/**
 * The scale-out backend: reports, sites, Cloud accounts and keys, and daily salts in one
 * ClickHouse database, on one server or a sharded cluster, shared by any number of server
 * processes. Opening checks the server answers, accepts the credentials and knows the
 * cluster, then creates the schema if it is missing; each failure is a `BackendError`
 * saying what to fix (never the password).
 *
 * @example
 * const backend = await openClickHouseBackend({ url: 'http://127.0.0.1:8123', username: 'default', password: '', database: 'siteline' });
 * const account = await backend.accounts.createAccount('Acme');
 * await backend.close();
 */
export async function openClickHouseBackend(options: ClickHouseBackendOptions): Promise<Backend> {
  const target = { database: options.database ?? 'siteline', cluster: options.cluster };
  const where = `ClickHouse at ${options.url}`;
  const storage = createClickHouseStorage({ ...options, leaveCountsOnClose: options.role === 'serve' });
  try {
    await check(storage.client, where, options);
    try {
      await storage.migrate();
    } catch (error) {
      throw new BackendError(`${where} refused to create the schema in database ${target.database}: ${reason(error)}`);
    }
    const settings = await insertSettings(storage.client, target.cluster !== undefined);
    const nodes = options.nodes ?? [];
    /** Runs on every server holding rows: each node of a cluster given its nodes, else the one client (with ON CLUSTER on a cluster). */
    const everyNode: EveryNode = async (run) => {
      if (!target.cluster || nodes.length === 0) return void (await run(storage.client, target.cluster ? ` ON CLUSTER ${sqlIdent(target.cluster)}` : ''));
      for (const url of nodes) {
        const node = connect({ url, username: options.username, password: options.password });
        try {
          await run(node, '');
        } finally {
          await node.close();
        }
      }
    };
    const dropDays = (days: string[]) =>
      everyNode((client, on) => Promise.all(days.map((day) => client.command({ query: `ALTER TABLE ${storageTableName(target, 'salts')}${on} DROP PARTITION ${sqlString(day)}` }))));
    return {
      kind: 'clickhouse',
      description: `clickhouse ${options.url.replace(/^https?:\/\//, '')}/${target.database}${target.cluster ? ` (cluster ${target.cluster})` : ''}`,
      storage,
      accounts: createClickHouseAccounts(storage.client, target, settings),
      people: createClickHousePeople(storage.client, target, settings, everyNode),
      shares: createClickHouseShareStore(storage.client, target, settings),
      emailReports: createClickHouseEmailReportStore(storage.client, target, settings),
      salts: createClickHouseSaltStore(storage.client, target, { ...(options.now ? { now: options.now } : {}), dropDays, insertSettings: settings }),
      capabilities: { writerThread: true, sharedAcrossHosts: true },
      close: () => storage.close(),
    };
  } catch (error) {
    await storage.close();
    throw error;
  }
}

/** Reachable, credentials accepted, cluster known: each failure named. */
async function check(client: ClickHouseClient, where: string, options: ClickHouseBackendOptions): Promise<void> {
  const ping = await client.ping();
  if (!ping.success) throw new BackendError(`Cannot reach ${where}: ${reason(ping.error)}. Check the host and port of DATABASE_URL and that the server runs.`);
  try {
    await client.query({ query: 'SELECT 1', format: 'JSONEachRow' }).then((r) => r.json());
  } catch (error) {
    const code = (error as { code?: string }).code;
    // 516 AUTHENTICATION_FAILED (current servers); 192 UNKNOWN_USER, 193 WRONG_PASSWORD (18.16).
    if (code === '516' || code === '192' || code === '193' || /authentication|password|unknown user/i.test(reason(error))) {
      throw new BackendError(`${where} refused the credentials of user ${JSON.stringify(options.username ?? 'default')}: check the user name and password in DATABASE_URL.`);
    }
    throw new BackendError(`${where} cannot run queries: ${reason(error)}`);
  }
  if (options.cluster === undefined) return;
  const clusters = await (
    await client.query({ query: 'SELECT DISTINCT cluster FROM system.clusters ORDER BY cluster', format: 'JSONEachRow' })
  ).json<{ cluster: string }>();
  if (!clusters.some((c) => c.cluster === options.cluster)) {
    const known = clusters.map((c) => c.cluster).join(', ') || 'none';
    throw new BackendError(`CLICKHOUSE_CLUSTER=${options.cluster} is not a cluster of ${where} (its remote_servers define: ${known}).`);
  }
}

function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // The server's own message, first line, without a stack or the client's wrapping.
  return text.split('\n')[0]!.replace(/^Code: \d+\.\s*/, '').replace(/,? e\.displayText\(\) = DB::Exception:\s*/, ' ').trim();
}
