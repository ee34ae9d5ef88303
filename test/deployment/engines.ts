/**
 * The engines a deployment test runs on: a SQLite file, one ClickHouse server, and a
 * two-shard ClickHouse cluster (real clickhouse-server processes on loopback).
 */
import type { Backend } from '@siteline/core';
import { openBackend } from '../../packages/http/src/backend.js';
import { databaseLocation } from '../../packages/http/src/config.js';
import { clickhouseAvailable, serverBinary, startClickHouse, startClickHouseCluster, type TestCluster, type TestServer } from '../../packages/clickhouse/src/test-server.js';

export { clickhouseAvailable, serverBinary };

export interface Engine {
  name: string;
  /** The environment of every `siteline` process on this engine (`DATABASE_URL`, cluster settings). */
  env: Record<string, string>;
  /** The same environment, but through another server of the cluster (the only one for single servers). */
  envVia(node: number): Record<string, string>;
  /** The backend, opened in the test process (a process of its own, like any other). */
  open(): Promise<Backend>;
}

let database = 0;

export function sqliteEngine(file: string): Engine {
  const env = { DATABASE_URL: `sqlite:${file}` };
  return { name: 'SQLite', env, envVia: () => env, open: () => openFrom(env) };
}

export async function clickhouseServer(): Promise<Engine & { server: TestServer }> {
  const server = await startClickHouse();
  const env = { DATABASE_URL: `clickhouse://default:@127.0.0.1:${server.httpPort}/deploy_${++database}` };
  return { name: 'ClickHouse', server, env, envVia: () => env, open: () => openFrom(env) };
}

export async function clickhouseCluster(): Promise<Engine & { cluster: TestCluster }> {
  const cluster = await startClickHouseCluster(2);
  const name = `deploy_${++database}`;
  const nodes = cluster.servers.map((s) => s.url).join(',');
  const envVia = (node: number) => ({
    DATABASE_URL: `clickhouse://default:@127.0.0.1:${cluster.servers[node]!.httpPort}/${name}`,
    CLICKHOUSE_CLUSTER: cluster.cluster,
    CLICKHOUSE_NODES: nodes,
  });
  return { name: 'ClickHouse two shards', cluster, env: envVia(0), envVia, open: () => openFrom(envVia(0)) };
}

async function openFrom(env: Record<string, string>): Promise<Backend> {
  const found = databaseLocation(env, process.cwd());
  if ('problem' in found) throw new Error(found.problem);
  return openBackend(found.location);
}
