/**
 * Test harness (used only by tests): starts real `clickhouse-server`
 * processes on free loopback ports with throw-away data directories, and
 * stops them again. Not exported from the package.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** Path of `clickhouse-server`, or why there is none. */
export const serverBinary: { path?: string; reason?: string } = findBinary();

/** True when a real server can be started; tests `describe.skipIf(!clickhouseAvailable)`. */
export const clickhouseAvailable = serverBinary.path !== undefined;

/** Prints the loud skip notice once per test file when no server can be started. */
export function warnIfUnavailable(suite: string): void {
  if (!clickhouseAvailable) console.warn(`SKIPPED ${suite}: ${serverBinary.reason}`);
}

function findBinary(): { path?: string; reason?: string } {
  const candidates = process.env.CLICKHOUSE_SERVER_BIN
    ? [process.env.CLICKHOUSE_SERVER_BIN]
    : [...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'clickhouse-server')), '/usr/bin/clickhouse-server'];
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK);
      return { path };
    } catch {
      // try the next one
    }
  }
  if (process.env.CLICKHOUSE_SERVER_BIN) return { reason: `CLICKHOUSE_SERVER_BIN=${process.env.CLICKHOUSE_SERVER_BIN} is not an executable` };
  return { reason: 'clickhouse-server is not installed (apt-get install clickhouse-server, or set CLICKHOUSE_SERVER_BIN)' };
}

export interface TestServer {
  /** HTTP address, e.g. `http://127.0.0.1:41234`. */
  url: string;
  httpPort: number;
  tcpPort: number;
  /** The server's process id (the bench waits for it to go idle). */
  pid: number;
  stop(): Promise<void>;
  /** Stops the server and keeps its data: an outage, ended by `startAgain`. */
  halt(): Promise<void>;
  /** Starts a halted server again on the same ports and data; resolves once it answers. */
  startAgain(): Promise<void>;
}

export interface TestCluster {
  /** Name of the cluster in every server's `remote_servers`. */
  cluster: string;
  servers: TestServer[];
  stop(): Promise<void>;
}

/**
 * A free loopback port below the kernel's ephemeral range (32768+ on Linux),
 * so the outgoing connections of other tests cannot take it between this
 * probe and the server binding it.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

const USERS_XML = `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>2000000000</max_memory_usage></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`;

function configXml(dir: string, ports: { http: number; tcp: number; interserver: number }, remoteServers: string): string {
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${dir}/log/server.log</log><errorlog>${dir}/log/error.log</errorlog><size>10M</size><count>1</count></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${ports.http}</http_port>
  <tcp_port>${ports.tcp}</tcp_port>
  <interserver_http_port>${ports.interserver}</interserver_http_port>
  <interserver_http_host>127.0.0.1</interserver_http_host>
  <max_connections>256</max_connections>
  <keep_alive_timeout>3</keep_alive_timeout>
  <max_concurrent_queries>64</max_concurrent_queries>
  <mark_cache_size>67108864</mark_cache_size>
  <uncompressed_cache_size>67108864</uncompressed_cache_size>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mlock_executable>false</mlock_executable>
  <remote_servers>${remoteServers}</remote_servers>
</yandex>
`;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

async function launch(ports: { http: number; tcp: number; interserver: number }, remoteServers = '', kept?: string): Promise<TestServer> {
  if (!serverBinary.path) throw new Error(serverBinary.reason);
  const binary = serverBinary.path;
  if (kept) mkdirSync(kept, { recursive: true });
  const dir = kept ?? mkdtempSync(join(tmpdir(), 'siteline-ch-'));
  writeFileSync(join(dir, 'users.xml'), USERS_XML);
  writeFileSync(join(dir, 'config.xml'), configXml(dir, ports, remoteServers));
  const url = `http://127.0.0.1:${ports.http}`;
  let child: ChildProcess;
  let exited: Promise<void>;
  let dead = false;
  const spawnServer = () => {
    child = spawn(binary, [`--config-file=${join(dir, 'config.xml')}`], { cwd: dir, stdio: 'ignore' });
    live.add(child);
    dead = false;
    exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    void exited.then(() => (dead = true));
  };
  const halt = async () => {
    if (!dead) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    live.delete(child);
  };
  const stop = async () => {
    await halt();
    if (!kept) rmSync(dir, { recursive: true, force: true });
  };
  /**
   * Resolves once the server answers /ping, or throws with its error log. A kept directory
   * (the bench's year) may hold hundreds of parts to load first: the 100M year's 533 parts took
   * 18.16 more than 30 s after the machine's page cache had lost them.
   */
  const answering = async () => {
    const deadline = Date.now() + (kept ? 600_000 : 30_000);
    while (Date.now() < deadline && !dead) {
      try {
        const response = await fetch(`${url}/ping`);
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    let log = '';
    try {
      log = readFileSync(join(dir, 'log', 'error.log'), 'utf8').slice(-2000);
    } catch {
      // no log written
    }
    throw new Error(`clickhouse-server did not answer /ping on port ${ports.http}${dead ? ' (it exited)' : ''}\n${log}`);
  };
  spawnServer();
  try {
    await answering();
  } catch (error) {
    await stop();
    throw error;
  }
  const startAgain = async () => {
    spawnServer();
    await answering();
  };
  return {
    url, httpPort: ports.http, tcpPort: ports.tcp, stop, halt, startAgain,
    // The running process's: startAgain spawns a new one.
    get pid() {
      return child.pid!;
    },
  };
}

const threePorts = async () => ({ http: await freePort(), tcp: await freePort(), interserver: await freePort() });

/**
 * One server on free loopback ports; `stop()` terminates it and deletes its data, unless
 * `dir` names where the data lives: then it stays there for the next start (the bench's
 * year of data, imported once).
 *
 * @example
 * const server = await startClickHouse();
 * const storage = createClickHouseStorage({ url: server.url });
 * await server.stop();
 */
export async function startClickHouse(options: { dir?: string } = {}): Promise<TestServer> {
  return withRetries(async () => launch(await threePorts(), '', options.dir));
}

/** Starts again on fresh ports when a port was taken after all (at most three tries). */
async function withRetries<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= 3 || !/Address already in use/.test(String(error))) throw error;
    }
  }
}

/**
 * `shards` servers that each list all of them (one replica per shard) as
 * cluster `siteline_test` in `remote_servers`, the way a real deployment
 * scales: add servers, not code.
 *
 * @example
 * const cluster = await startClickHouseCluster(2);
 * const storage = createClickHouseStorage({ url: cluster.servers[0].url, cluster: cluster.cluster, nodes: cluster.servers.map((s) => s.url) });
 */
export async function startClickHouseCluster(shards = 2, cluster = 'siteline_test'): Promise<TestCluster> {
  return withRetries(() => launchCluster(shards, cluster));
}

async function launchCluster(shards: number, cluster: string): Promise<TestCluster> {
  const ports = [];
  for (let i = 0; i < shards; i++) ports.push(await threePorts());
  const shardXml = ports
    .map((p) => `<shard><replica><host>127.0.0.1</host><port>${p.tcp}</port></replica></shard>`)
    .join('');
  const remote = `<${cluster}>${shardXml}</${cluster}>`;
  const servers: TestServer[] = [];
  try {
    for (const p of ports) servers.push(await launch(p, remote));
  } catch (error) {
    await Promise.all(servers.map((s) => s.stop()));
    throw error;
  }
  return { cluster, servers, stop: async () => void (await Promise.all(servers.map((s) => s.stop()))) };
}
