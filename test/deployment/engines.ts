/**
 * The engines a deployment test runs on: a SQLite file, one ClickHouse server, and a
 * two-shard ClickHouse cluster (real clickhouse-server processes on loopback).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Backend } from '@siteline/core';
import { afterAll } from 'vitest';
import { openBackend } from '../../packages/http/src/backend.js';
import { databaseLocation } from '../../packages/http/src/config.js';
import { ensureDevCertificate } from '../../packages/http/src/dev-cert.js';
import { clickhouseAvailable, serverBinary, startClickHouse, startClickHouseCluster, type TestCluster, type TestServer } from '../../packages/clickhouse/src/testing/test-server.js';

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

export type EngineName = 'SQLite' | 'ClickHouse' | 'ClickHouse two shards';

/**
 * What every deployment test file needs: a scratch directory with a development
 * certificate, a list of things to stop after the file (servers, processes), both
 * cleaned up by `afterAll`, and the engines to run on, each made fresh by `make(name)`
 * (a new SQLite file, a new ClickHouse server or cluster). ClickHouse engines are left
 * out, with a notice naming the reason, where clickhouse-server is not installed.
 *
 * @example
 * const { dir, tls, stops, engines } = deploymentSetup('collect', ['SQLite', 'ClickHouse']);
 * describe.each(engines)('on %s', (_name, make) => { ... });
 */
export function deploymentSetup(name: string, wanted: EngineName[]) {
  const dir = mkdtempSync(join(tmpdir(), `siteline-deploy-${name}-`));
  const tls = ensureDevCertificate(join(dir, 'tls'));
  const stops: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const makers: Record<EngineName, (file: string) => Promise<Engine>> = {
    SQLite: async (file) => sqliteEngine(join(dir, `${file}.db`)),
    ClickHouse: async () => {
      const engine = await clickhouseServer();
      stops.push(() => engine.server.stop());
      return engine;
    },
    'ClickHouse two shards': async () => {
      const engine = await clickhouseCluster();
      stops.push(() => engine.cluster.stop());
      return engine;
    },
  };
  const skipped = wanted.filter((engine) => engine !== 'SQLite' && !clickhouseAvailable);
  if (skipped.length > 0) console.warn(`SKIPPED the ${skipped.join(' and ')} half of the ${name} deployment test: ${serverBinary.reason}`);
  const engines = wanted.filter((engine) => !skipped.includes(engine)).map((engine) => [engine, makers[engine]] as const);
  return { dir, tls, stops, engines };
}
