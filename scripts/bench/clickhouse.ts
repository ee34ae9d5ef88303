/**
 * The ClickHouse columns of the bench, one per engine: a real
 * clickhouse-server on loopback (18.16 from apt, through the test harness of
 * packages/clickhouse) and ClickHouse 26.x in-process (chdb, in a forked
 * process of its own: chdb keeps one data directory per process and must not
 * run in a worker thread). Each gets the same generated lines through
 * `importEvents`, then every endpoint is timed through the core, over HTTPS
 * (`createApiHandler` over the ClickHouse storage) and against its floor (a
 * plain aggregate query on the same rows and engine, clickhouse-floors.ts),
 * and its JSON is kept for the comparison with the SQLite store. Then the
 * collector's buffered writes into ClickHouse under `wrk`.
 */
import { rmSync } from 'node:fs';
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chdbConnection, chdbUnavailable } from '../../packages/clickhouse/src/testing/chdb-harness.js';
import { createClickHouseStorage, type ClickHouseStorage } from '../../packages/clickhouse/src/clickhouse-storage.js';
import { createClickHouseSaltStore } from '../../packages/clickhouse/src/sites/salts.js';
import type { SaltStore } from '../../packages/core/src/salts/salts.js';
import type { Storage } from '../../packages/core/src/storage/types.js';
import { clickhouseAvailable, serverBinary, startClickHouse, type TestServer } from '../../packages/clickhouse/src/testing/test-server.js';
import { importEvents } from '../../packages/core/src/import/import.js';
import { parseQuery } from '../../packages/core/src/query/parse.js';
import { REPORTS } from '../../packages/core/src/reports/index.js';
import { localDay, shiftDay } from '../../packages/core/src/time/zone.js';
import { ENDPOINT_PATHS, type EndpointName } from '../../packages/core/src/types.js';
import { extensionFloorSql, floorSql, propertyFloorSql } from './clickhouse-floors.js';
import { type BeaconKind, measureCollect, wrkInstalled, type CollectResult } from './collect.js';
import { costLines, costSite, type ImportCost, importCost, PROPERTY_CASES, type PropertyCase, propertyParams } from './properties.js';
import { EXTENSION_CASES, type ExtensionCase } from './extensions.js';
import { exportInChild, exportInProcess, type ExportResult } from './export.js';
import { FUNNEL_CASES, type FunnelCase, funnelFloorSql, funnelParams } from './funnels.js';
import { chunks, createBenchSite, type BenchSite, type DatasetOptions } from './dataset.js';
import { time, timeInTurns, type Timing } from './measure.js';
import { startServer } from './server.js';

export type Engine = 'server' | 'chdb';

export interface EndpointTimes {
  core: Timing;
  /** Over HTTPS through `createApiHandler` with the ClickHouse storage. */
  http: Timing;
  /** The plain aggregate query on the same rows (clickhouse-floors.ts). */
  floor: Timing;
  json: string;
}

export interface ClickHouseResult {
  engine: Engine;
  version: string;
  events: number;
  importPerSecond: number;
  bytes: number;
  endpoints: Partial<Record<EndpointName, EndpointTimes>>;
  /** The query extensions' cases (extensions.ts): core, HTTPS and the case's floor (clickhouse-floors.ts), and the answer. */
  extensions: { case: ExtensionCase; endpoint: EndpointName; core: Timing; http: Timing; floor: Timing; json: string }[];
  /** What the filter layout (schema versions 6, 8 and 9) stores: bytes of `pageview_gaps`, `custom_events` and the sessions' `paths`, `names` and `name_counts`. */
  layoutBytes: number;
  /** The same lines through the adapter of `layoutBefore` (undefined without it). */
  before?: { dir: string; importPerSecond: number; bytes: number };
  /** The property and goal cases (properties.ts), core: p50, the floor of the same case (clickhouse-floors.ts) and the answer. */
  properties: { case: PropertyCase; core: Timing; floor: Timing; json: string }[];
  /** The funnel cases (funnels.ts), core: p50, the floor of the same case and the answer. */
  funnels: { case: FunnelCase; core: Timing; floor: Timing; json: string }[];
  /** The same lines imported with and without properties (undefined when skipped). */
  importCost?: ImportCost;
  collect: CollectResult | string;
  /** `POST /collect` of custom events without and with properties. */
  collectEvents: { without: CollectResult | string; with: CollectResult | string };
  /** `openExport` of the large site's 30 days (export.ts); undefined when skipped. */
  exported?: ExportResult;
}

export interface ClickHouseBenchOptions {
  sites: BenchSite[];
  lines: DatasetOptions;
  /** The site the endpoints are timed on. */
  siteId: string;
  endpoints: EndpointName[];
  /** Query parameters of each endpoint (the same as the SQLite store's). */
  params: Partial<Record<EndpointName, Record<string, string>>>;
  runs: number;
  /** Runs of each floor query. */
  floorRuns: number;
  /** Runs of each query-extension case (0: none). */
  extensionRuns: number;
  /** Runs of each property and goal case (0: none). */
  propertyRuns: number;
  /** Runs of each funnel case (0: none). */
  funnelRuns: number;
  /** Pageviews of the lines imported with and without properties (0: skipped). */
  costPageviews: number;
  /** Export the large site's 30 days (export.ts) after the reads. */
  exportEvents: boolean;
  /** The instant every read is made at (the same for both stores, so `/live` looks at the same 5 minutes). */
  readNow: number;
  /** Scratch directory (TLS certificate, wrk script). */
  dir: string;
  /**
   * A checkout of an earlier Siteline (e.g. `git archive <commit>`) whose ClickHouse adapter imports the same
   * lines into a second database after this column's import: import speed and bytes of the two layouts in one run.
   */
  layoutBefore?: string;
  /** wrk on `POST /collect` into ClickHouse; 0 seconds skips it. */
  collect: { seconds: number; connections: number };
}

/** Why an engine has no column, or undefined when it can have one. */
export function clickhouseUnavailable(engine: Engine): string | undefined {
  if (engine === 'server') return clickhouseAvailable ? undefined : serverBinary.reason;
  return chdbUnavailable;
}

const log = (text: string) => console.error(`[bench ${(performance.now() / 1000).toFixed(0)}s] ${text}`);

/** Runs the column of `engine` (chdb in a forked process of its own). */
export async function benchClickHouse(engine: Engine, options: ClickHouseBenchOptions): Promise<ClickHouseResult> {
  if (engine === 'chdb') return inChild(options);
  const server = await startClickHouse();
  try {
    return await run('server', createClickHouseStorage({ url: server.url, database: 'bench', now: () => options.readNow }), options, server);
  } finally {
    await server.stop();
  }
}

/** The column itself, in this process. */
export async function run(engine: Engine, storage: ClickHouseStorage, options: ClickHouseBenchOptions, server?: TestServer): Promise<ClickHouseResult> {
  const name = engine === 'server' ? 'clickhouse-server' : 'chdb';
  const rows = async <T>(query: string) => (await storage.client.query({ query, format: 'JSONEachRow' })).json<T>();
  await storage.migrate();
  const [{ v: version } = { v: '?' }] = await rows<{ v: string }>('SELECT version() AS v');
  const { events, importMs } = await importAll(storage, options, (n, t) => log(`${name}: imported ${n.toLocaleString('en-US')} events (${Math.round((n / t) * 1000).toLocaleString('en-US')}/s)`));

  const before = options.layoutBefore ? await importBefore(options.layoutBefore, engine, options, server) : undefined;

  const site = options.sites.find((s) => s.id === options.siteId)!;
  const to = localDay(options.readNow, site.timezone);
  const from = shiftDay(to, -29);
  const report = (endpoint: EndpointName) => (): Promise<unknown> => REPORTS[endpoint](storage, parseQuery(endpoint, options.params[endpoint]!), { now: options.readNow });
  // One backend for the read server and the collector, as a deployment has.
  const backend = { storage, salts: createClickHouseSaltStore(storage.client, { database: 'bench' }) };
  const http = await startServer(backend, () => options.readNow, join(options.dir, 'tls'));
  const endpoints: Partial<Record<EndpointName, EndpointTimes>> = {};
  const extensions: ClickHouseResult['extensions'] = [];
  try {
    for (const endpoint of options.endpoints) {
      await report(endpoint)(); // first call outside the timing, as for SQLite's warm runs
      const core = await time(options.runs, report(endpoint));
      const path = `/api/v1${ENDPOINT_PATHS[endpoint]}?${new URLSearchParams(options.params[endpoint])}`;
      const viaHttp = await time(options.runs, () => http.get(path));
      const floorQuery = floorSql('bench', endpoint, site.id, endpoint === 'live' ? shiftDay(to, -1) : from, to, options.readNow);
      const floor = await time(options.floorRuns, () => rows(floorQuery));
      const json = JSON.stringify(core.result);
      if (JSON.stringify(JSON.parse(viaHttp.result)) !== json) throw new Error(`${name}: ${endpoint} over HTTPS differs from the core's answer`);
      endpoints[endpoint] = { core: core.timing, http: viaHttp.timing, floor: floor.timing, json };
      log(`${name} ${endpoint}: core p50 ${core.timing.p50.toFixed(1)} ms, HTTPS ${viaHttp.timing.p50.toFixed(1)} ms, floor ${floor.timing.p50.toFixed(1)} ms`);
    }
    for (const [name, extra] of options.extensionRuns > 0 ? (Object.entries(EXTENSION_CASES) as [ExtensionCase, Record<string, string>][]) : []) {
      for (const endpoint of options.endpoints.filter((e) => e !== 'live' && e !== 'properties' && e !== 'goals' && e !== 'funnels')) {
        const params = { site_id: site.id, period: '30d', ...extra };
        const call = (): Promise<unknown> => REPORTS[endpoint](storage, parseQuery(endpoint, params), { now: options.readNow });
        await call();
        const core = await time(options.extensionRuns, call);
        const viaHttp = await time(options.extensionRuns, () => http.get(`/api/v1${ENDPOINT_PATHS[endpoint]}?${new URLSearchParams(params)}`));
        const first = shiftDay(to, params.period === '7d' ? -6 : -29);
        const floorQuery = extensionFloorSql('bench', endpoint, site.id, first, to, params);
        const floor = await time(options.floorRuns, () => rows(floorQuery));
        const json = JSON.stringify(core.result);
        if (JSON.stringify(JSON.parse(viaHttp.result)) !== json) throw new Error(`${name}: ${endpoint} ${name} over HTTPS differs from the core's answer`);
        extensions.push({ case: name, endpoint, core: core.timing, http: viaHttp.timing, floor: floor.timing, json });
        log(`${engine} ${name} ${endpoint}: core p50 ${core.timing.p50.toFixed(1)} ms, HTTPS ${viaHttp.timing.p50.toFixed(1)} ms, floor ${floor.timing.p50.toFixed(1)} ms`);
      }
    }
  } finally {
    await http.close();
  }
  const properties: ClickHouseResult['properties'] = [];
  for (const name of options.propertyRuns > 0 ? (Object.keys(PROPERTY_CASES) as PropertyCase[]) : []) {
    const [endpoint] = PROPERTY_CASES[name];
    const call = (): Promise<unknown> => REPORTS[endpoint](storage, parseQuery(endpoint, propertyParams(name, site.id)), { now: options.readNow });
    await call();
    const core = await time(options.propertyRuns, call);
    const floorQuery = propertyFloorSql('bench', endpoint, site.id, shiftDay(to, -29), to, PROPERTY_CASES[name][1]);
    const floor = await time(options.floorRuns, () => rows(floorQuery));
    properties.push({ case: name, core: core.timing, floor: floor.timing, json: JSON.stringify(core.result) });
    log(`${engine} ${name}: core p50 ${core.timing.p50.toFixed(1)} ms, floor ${floor.timing.p50.toFixed(1)} ms`);
  }
  const funnels: ClickHouseResult['funnels'] = [];
  for (const name of options.funnelRuns > 0 ? (Object.keys(FUNNEL_CASES) as FunnelCase[]) : []) {
    const params = funnelParams(name, site.id);
    const call = (): Promise<unknown> => REPORTS.funnels(storage, parseQuery('funnels', params), { now: options.readNow });
    await call();
    const floorQuery = funnelFloorSql('bench', site.id, shiftDay(to, -29), to, params);
    // In turns, so the core and its floor see the same load (measure.ts).
    const [core, floor] = await timeInTurns(options.funnelRuns, call, () => rows(floorQuery));
    funnels.push({ case: name, core: core.timing, floor: floor.timing, json: JSON.stringify(core.result) });
    log(`${engine} funnel, ${name}: core p50 ${core.timing.p50.toFixed(1)} ms, floor ${floor.timing.p50.toFixed(1)} ms`);
  }
  let exported: ExportResult | undefined;
  if (options.exportEvents) {
    const store = `${engine === 'server' ? 'clickhouse-server' : 'chdb'} ${version}`;
    log(`${name}: export of the large site's 30 days`);
    exported = server
      ? await exportInChild(store, { kind: 'clickhouse', url: server.url, database: 'bench' }, site.id, options.readNow)
      : await exportInProcess(`${store} (in the importing process; RSS sampled per chunk)`, storage, site.id, options.readNow);
    log(`${name}: exported ${exported.events.toLocaleString('en-US')} events in ${exported.seconds.toFixed(1)} s`);
  }
  const [parts] = await rows<{ b: string }>("SELECT sum(bytes_on_disk) AS b FROM system.parts WHERE database = 'bench' AND active");
  const [gapBytes] = await rows<{ b: string }>("SELECT sum(bytes_on_disk) AS b FROM system.parts WHERE database = 'bench' AND table IN ('pageview_gaps', 'custom_events') AND active");
  const [arrayBytes] = await rows<{ b: string }>(
    "SELECT sum(data_compressed_bytes) AS b FROM system.columns WHERE database = 'bench' AND table IN ('sessions', 'session_state') AND name IN ('paths', 'names', 'name_counts')",
  );
  const collect = await collectInto(backend, options, engine, server);
  const collectEvents = {
    without: await collectInto(backend, options, engine, server, 'event'),
    with: await collectInto(backend, options, engine, server, 'event with props'),
  };
  let cost: ImportCost | undefined;
  if (options.costPageviews > 0) {
    log(`${name}: importing the same lines with and without properties`);
    const costOf = costSite(site, options.costPageviews);
    cost = await importCost(costLines(costOf, options.lines), costOf, async (database) => {
      const other = engine === 'chdb' ? chdbStorage(options.readNow, database) : createClickHouseStorage({ url: server!.url, database, now: () => options.readNow });
      await other.migrate();
      const query = async <T>(sql: string) => (await other.client.query({ query: sql, format: 'JSONEachRow' })).json<T>();
      return {
        storage: other,
        bytes: async () => {
          await other.client.command({ query: `OPTIMIZE TABLE ${database}.events FINAL` });
          return Number((await query<{ b: string }>(`SELECT sum(bytes_on_disk) AS b FROM system.parts WHERE database = '${database}' AND table = 'events' AND active`))[0]?.b ?? 0);
        },
        drop: async () => {
          await other.client.command({ query: `DROP DATABASE IF EXISTS ${database}` });
          await other.close();
        },
      };
    });
  }
  await storage.close();
  return {
    engine, version, events, importPerSecond: (events / importMs) * 1000, bytes: Number(parts?.b ?? 0), layoutBytes: Number(gapBytes?.b ?? 0) + Number(arrayBytes?.b ?? 0),
    before, endpoints, extensions, properties, funnels,
    importCost: cost, collect, collectEvents, exported,
  };
}

/** Creates the bench's sites and imports their lines with `importEvents`: events and milliseconds spent importing. */
async function importAll(storage: Storage, options: ClickHouseBenchOptions, progress?: (events: number, importMs: number) => void) {
  let events = 0;
  let importMs = 0;
  for (const site of options.sites) {
    await createBenchSite(storage, site);
    for (const lines of chunks(site, options.lines)) {
      const t = performance.now();
      await importEvents(storage, lines);
      importMs += performance.now() - t;
      events += lines.length;
      progress?.(events, importMs);
    }
  }
  return { events, importMs };
}

/** The same lines through an earlier checkout's adapter, into database `bench_before` (dropped afterwards): import speed and bytes. */
async function importBefore(dir: string, engine: Engine, options: ClickHouseBenchOptions, server?: TestServer): Promise<ClickHouseResult['before']> {
  const older = (await import(pathToFileURL(join(dir, 'packages/clickhouse/src/clickhouse-storage.ts')).href)) as typeof import('../../packages/clickhouse/src/clickhouse-storage.js');
  const database = 'bench_before';
  const store = engine === 'chdb'
    ? older.createClickHouseStorage({ connection: chdbConnection(), database, now: () => options.readNow })
    : older.createClickHouseStorage({ url: server!.url, database, now: () => options.readNow });
  await store.migrate();
  const { events, importMs } = await importAll(store, options);
  const [parts] = await (await store.client.query({ query: `SELECT sum(bytes_on_disk) AS b FROM system.parts WHERE database = '${database}' AND active`, format: 'JSONEachRow' })).json<{ b: string }>();
  await store.client.command({ query: `DROP DATABASE IF EXISTS ${database}` });
  await store.close();
  log(`${engine}: the same lines through ${dir}: ${Math.round((events / importMs) * 1000)} events/s`);
  return { dir, importPerSecond: (events / importMs) * 1000, bytes: Number(parts?.b ?? 0) };
}

/**
 * `POST /collect` under wrk into ClickHouse: on a clickhouse-server as the standalone server runs it (a worker thread
 * through the spool); on chdb in the request thread, each beacon answered once inserted (chdb cannot run in a worker).
 */
async function collectInto(
  backend: { storage: ClickHouseStorage; salts: SaltStore }, options: ClickHouseBenchOptions, engine: Engine, server?: TestServer, kind: BeaconKind = 'pageview',
): Promise<CollectResult | string> {
  const { storage } = backend;
  if (options.collect.seconds <= 0) return 'skipped (--collect-seconds 0)';
  if (!wrkInstalled()) return 'n/a (wrk not installed)';
  log(`${engine === 'server' ? 'clickhouse-server' : 'chdb'}: wrk on POST /collect (${kind})`);
  const site = options.sites.find((s) => s.id === options.siteId)!;
  const started = Date.now();
  // Beacons are stamped "now": run the clock on from the data's end, as the SQLite collector's does.
  const spool = join(options.dir, 'spool-collect');
  rmSync(spool, { recursive: true, force: true });
  const worker = server ? { location: { engine: 'clickhouse' as const, url: server.url, username: 'default', password: '', database: 'bench' }, spool: { dir: spool, maxBytes: 256 * 1024 * 1024 } } : undefined;
  const collector = await startServer(backend, () => options.lines.endMs + (Date.now() - started), join(options.dir, 'tls'), worker);
  const count = async () => Number((await (await storage.client.query({ query: `SELECT count() AS n FROM bench.events WHERE site_id = '${site.id}'`, format: 'JSONEachRow' })).json<{ n: string }>())[0]!.n);
  let stored = await count();
  try {
    return await measureCollect({
      url: collector.url, siteId: site.id, domain: site.domain, seconds: options.collect.seconds, connections: options.collect.connections, dir: options.dir, kind,
      flush: async () => {
        await collector.flush();
        stored = await count();
      },
      countStored: () => stored,
    });
  } catch (error) {
    return `failed: ${String(error).slice(0, 200)}`;
  } finally {
    await collector.close();
    rmSync(spool, { recursive: true, force: true });
  }
}

/** Runs the chdb column in a forked process (see clickhouse-child.ts) and returns its result. */
function inChild(options: ClickHouseBenchOptions): Promise<ClickHouseResult> {
  const child = fork(fileURLToPath(new URL('./clickhouse-child.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    let result: ClickHouseResult | undefined;
    child.on('message', (message: { result?: ClickHouseResult; error?: string }) => {
      if (message.error) reject(new Error(`chdb column: ${message.error}`));
      else result = message.result;
    });
    child.on('error', reject);
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`chdb column: process exited ${code}`))));
    child.send(options);
  });
}

/** The chdb column's store, on this process's chdb data directory. */
export function chdbStorage(readNow: number, database = 'bench'): ClickHouseStorage {
  return createClickHouseStorage({ connection: chdbConnection(), database, now: () => readNow });
}
