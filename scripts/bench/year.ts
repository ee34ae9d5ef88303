/**
 * `npm run bench -- --year`: a busy site's whole year (default 100M pageviews over 365 days,
 * seasonal, weekly and daily shape, the bench's skew; and the bench's four small sites) in
 * SQLite and in a clickhouse-server (18.16 from apt), then the reads its owner makes over
 * HTTPS (year-reads.ts) against the targets, ClickHouse's beside their floors.
 *
 * The data lives in `--dir` (outside the repository for 100M: ~20 GB of SQLite, ~11 GB of
 * ClickHouse), one folder per size. The import runs in a process of its own per store
 * (year-import-child.ts), chunk by chunk with a progress line; `--reuse` keeps what is there
 * and resumes an interrupted import, without it the size's folder starts empty.
 *
 * chdb is not in this profile: `siteline serve` cannot run on it (it is in-process), and a
 * third copy of 100M events would take another hour of both cores and ~14 GB; the 30-day
 * bench (`npm run bench`) measures it.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { createClickHouseStorage } from '../../packages/clickhouse/src/clickhouse-storage.js';
import { startClickHouse, type TestServer } from '../../packages/clickhouse/src/testing/test-server.js';
import { dayStart, localDay, shiftDay } from '../../packages/core/src/time/zone.js';
import type { EndpointName } from '../../packages/core/src/types.js';
import Database from 'better-sqlite3';
import { benchArgs } from './args.js';
import { benchSites, BIG } from './dataset.js';
import { int, ms, table } from './measure.js';
import { certificate } from './server.js';
import { settled, startServe } from './serve.js';
import { importYear } from './year-import.js';
import { growthTable } from './year-growth.js';
import type { YearProgress } from './year-import-child.js';
import { sqliteFloorSql, yearFloors, type YearFloor } from './year-floors.js';
import { client, sqliteTarget, YEAR_CASES, YEAR_ENDPOINTS, YEAR_RANGES, type YearCase, type YearRead, yearRange, yearReads } from './year-reads.js';

const args = benchArgs('npm run bench -- --year', {
  year: { type: 'boolean', default: false },
  pageviews: { type: 'string', default: '100000000' },
  days: { type: 'string', default: '365' },
  'small-sites': { type: 'string', default: '4' },
  seed: { type: 'string', default: '1' },
  now: { type: 'string', default: '2026-11-20T12:00:00Z' },
  /** Lines per `importEvents` call (a day's rollups are rebuilt after each call that touched it). */
  chunk: { type: 'string', default: '4000000' },
  dir: { type: 'string', default: '.bench/year' },
  /** `sqlite`, `server` (clickhouse-server from apt), or both. */
  engines: { type: 'string', default: 'sqlite,server' },
  /** Keep the size's data and resume an interrupted import; without it the size's folder starts empty. */
  reuse: { type: 'boolean', default: false },
  /** `import`, `reads`, or both; `report`: the tables of the last runs' results (year-<engine>.json) only. */
  parts: { type: 'string', default: 'import,reads' },
  /** Cases to read (names of year-reads.ts YEAR_CASES, comma-separated); default all. */
  cases: { type: 'string' },
  /** Endpoints to read (comma-separated); default all but /live. */
  endpoints: { type: 'string' },
  runs: { type: 'string', default: '5' },
  'floor-runs': { type: 'string', default: '3' },
  /** A first call slower than this is timed twice more instead of `--runs` times. */
  'slow-ms': { type: 'string', default: '2000' },
});

type Engine = 'sqlite' | 'server';
const engines = String(args.engines).split(',').filter(Boolean) as Engine[];
for (const e of engines) if (e !== 'sqlite' && e !== 'server') throw new Error(`--engines takes sqlite and server, got ${e}`);
const parts = new Set(String(args.parts).split(','));
const cases = args.cases ? caseList(String(args.cases)) : undefined;
const endpoints = args.endpoints ? (String(args.endpoints).split(',') as EndpointName[]) : undefined;
/**
 * `--cases`, separated by commas without a space after them: a case's name holds a comma and a
 * space (`country is DE, page is /pricing`), so `unfiltered,country is DE,page is /pricing` is
 * three cases and `country is DE, page is /pricing` one. (A longest-match reading took the
 * first list for two.)
 */
function caseList(text: string): YearCase[] {
  return text.split(/,(?! )/).map((p) => p.trim()) as YearCase[];
}
for (const c of cases ?? []) if (!(c in YEAR_CASES)) throw new Error(`unknown case ${c}; cases: ${Object.keys(YEAR_CASES).join(', ')}`);
for (const e of endpoints ?? []) if (!(YEAR_ENDPOINTS as readonly string[]).includes(e)) throw new Error(`unknown endpoint ${e}; endpoints: ${YEAR_ENDPOINTS.join(', ')}`);
const num = (name: keyof typeof args) => Number(args[name]);
const pageviews = num('pageviews');
const folder = resolve(String(args.dir), `pv-${pageviews}`);
const endMs = Date.parse(String(args.now));
const lastDay = localDay(endMs - 1, BIG.timezone);
const sites = benchSites(pageviews, num('small-sites'));
const lines = { days: num('days'), seed: num('seed'), endMs, chunk: num('chunk'), seasonal: true };
const KEY = 'year-bench-key-0123456789abcdef0123456789';
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const log = (text: string) => console.error(`[bench --year ${(performance.now() / 1000).toFixed(0)}s, load ${load()}] ${text}`);

interface EngineResult {
  engine: Engine;
  version: string;
  progress: YearProgress;
  bytes: number;
  reads: YearRead[];
  floors: YearFloor[];
  /** The server's RSS after the reads and its peak, MB. */
  rss?: { nowMb: number; peakMb: number };
  load: { before: string; after: string };
}

const sqliteFile = join(folder, 'year.db');
const clickhouseDir = join(folder, 'clickhouse');
const resultFile = (engine: Engine) => join(folder, `year-${engine}.json`);

async function withClickHouse<T>(fn: (server: TestServer) => Promise<T>): Promise<T> {
  const server = await startClickHouse({ dir: clickhouseDir });
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}

async function clickhouseQuery<T>(url: string, query: string): Promise<T[]> {
  const storage = createClickHouseStorage({ url, database: 'bench' });
  try {
    return await (await storage.client.query({ query, format: 'JSONEachRow' })).json<T>();
  } finally {
    await storage.close();
  }
}

/**
 * An earlier run's rows (reads or floors) of the cases, ranges and endpoints `now` did not
 * measure, then `now`'s: `--cases` and `--endpoints` runs fill one size's tables a part at a time.
 */
function keepEarlier<T extends { case: string; range: string; endpoint: string }>(earlier: readonly T[], now: readonly T[]): T[] {
  const key = (x: T) => `${x.case}\u0000${x.range}\u0000${x.endpoint}`;
  const measured = new Set(now.map(key));
  return [...earlier.filter((x) => !measured.has(key(x))), ...now];
}

async function runEngine(engine: Engine): Promise<EngineResult> {
  const before = load();
  const progressFile = join(folder, `import-${engine}.json`);
  let progress: YearProgress;
  const importInto = (target: string) => importYear({ engine, target, sites, lines, progress: progressFile }, log);
  if (engine === 'sqlite') {
    progress = parts.has('import') ? await importInto(sqliteFile) : (JSON.parse(readFileSync(progressFile, 'utf8')) as YearProgress);
  } else {
    progress = parts.has('import') ? await withClickHouse((server) => importInto(server.url)) : (JSON.parse(readFileSync(progressFile, 'utf8')) as YearProgress);
  }
  const result: EngineResult = { engine, version: engine === 'sqlite' ? 'SQLite' : 'clickhouse-server', progress, bytes: 0, reads: [], floors: [], load: { before, after: before } };
  if (engine === 'sqlite') result.bytes = statSync(sqliteFile).size;
  /** `others`: the processes besides siteline serve that a request may leave busy (a clickhouse-server). */
  const read = async (databaseUrl: string, others: number[] = []) => {
    const serve = await startServe(databaseUrl, { key: KEY, dir: folder });
    const http = client(serve.port, KEY, certificate(join(folder, 'tls')).cert);
    try {
      // Warm: the server's start-up work (SQLite's warming of the last 30 days into the column cache) done first.
      await serve.settled();
      log(`${engine}: reads over HTTPS from siteline serve (pid ${serve.pid})`);
      result.reads = await yearReads(http.get, {
        siteId: BIG.id, lastDay, runs: num('runs'), slowMs: num('slow-ms'), ...(cases ? { cases } : {}), ...(endpoints ? { endpoints } : {}), settled: () => settled([serve.pid, ...others]), log,
      });
      result.rss = serve.rss();
    } finally {
      http.close();
      await serve.stop();
    }
  };
  const earlier = existsSync(resultFile(engine)) ? (JSON.parse(readFileSync(resultFile(engine), 'utf8')) as EngineResult) : undefined;
  if (parts.has('reads')) {
    if (engine === 'sqlite') {
      await read(sqliteFile);
      result.floors = sqliteFloors(result.reads);
    }
    else {
      await withClickHouse(async (server) => {
        const [{ v }] = await clickhouseQuery<{ v: string }>(server.url, 'SELECT version() AS v') as [{ v: string }];
        result.version = `clickhouse-server ${v}`;
        const [{ b }] = await clickhouseQuery<{ b: string }>(server.url, "SELECT sum(bytes_on_disk) AS b FROM system.parts WHERE database = 'bench' AND active") as [{ b: string }];
        result.bytes = Number(b);
        await read(`clickhouse://default:@127.0.0.1:${server.httpPort}/bench`, [server.pid]);
        log('clickhouse-server: floors');
        result.floors = await yearFloors((sql) => clickhouseQuery(server.url, sql), { siteId: BIG.id, lastDay, runs: num('floor-runs'), ...(cases ? { cases } : {}), ...(endpoints ? { endpoints } : {}), log });
      });
    }
  }
  result.load.after = load();
  // A run of some cases or endpoints adds to the size's earlier results: theirs replaced, the others kept.
  if (earlier) {
    result.reads = keepEarlier(earlier.reads, result.reads);
    result.floors = keepEarlier(earlier.floors, result.floors);
  }
  writeFileSync(resultFile(engine), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

/**
 * SQLite's floors (year-floors.ts `sqliteFloorSql`) of the cases and ranges whose slowest read
 * missed its target, each endpoint of the case against the same floor; on a read-only connection.
 */
function sqliteFloors(reads: readonly YearRead[]): YearFloor[] {
  const db = new Database(sqliteFile, { readonly: true });
  db.pragma('cache_size = -65536');
  const out: YearFloor[] = [];
  try {
    for (const name of Object.keys(YEAR_CASES) as YearCase[]) {
      for (const range of YEAR_RANGES) {
        const mine = reads.filter((r) => r.case === name && r.range === range);
        // Unfiltered reads sum rollups and slices, a few rows per day and value: no raw read is their floor.
        if (name === 'unfiltered' || mine.length === 0 || Math.max(...mine.map((r) => r.warm.p50)) <= sqliteTarget(name, range)) continue;
        const { from, to } = yearRange(range, lastDay);
        const queries = sqliteFloorSql(name, BIG.id, from, to, dayStart(from, BIG.timezone), dayStart(shiftDay(to, 1), BIG.timezone)).map((q) => ({ q, statement: db.prepare(q.sql) }));
        // Two conditions: the cheaper of the two reads.
        const timings = queries.map(({ q, statement }) => {
          const t = performance.now();
          statement.get(...q.args);
          return performance.now() - t;
        });
        const cheapest = queries[timings.indexOf(Math.min(...timings))]!;
        const runs: number[] = [];
        for (let i = 0; i < num('floor-runs'); i++) {
          const t = performance.now();
          cheapest.statement.get(...cheapest.q.args);
          runs.push(performance.now() - t);
        }
        runs.sort((a, b) => a - b);
        const timing = { p50: runs[Math.floor((runs.length - 1) / 2)]!, p95: runs[runs.length - 1]!, runs: runs.length };
        log(`sqlite floor ${name}, ${range}: ${timing.p50.toFixed(0)} ms (${cheapest.q.sql.slice(0, 60)}…)`);
        for (const r of mine) out.push({ case: name, range, endpoint: r.endpoint, timing });
      }
    }
  } finally {
    db.close();
  }
  return out;
}

/** The reads of one engine as a table: a row per case and range, a column per endpoint (HTTPS p50, ms). */
function readsTable(r: EngineResult, other?: EngineResult): string {
  const rows: string[][] = [];
  for (const name of Object.keys(YEAR_CASES) as YearCase[]) {
    for (const range of YEAR_RANGES) {
      const reads = YEAR_ENDPOINTS.map((e) => r.reads.find((x) => x.case === name && x.range === range && x.endpoint === e));
      if (reads.every((x) => !x)) continue;
      const worst = Math.max(...reads.map((x) => x?.warm.p50 ?? 0));
      const target = r.engine === 'sqlite' ? sqliteTarget(name, range) : name === 'unfiltered' ? 150 : range === '12 months' ? 1000 : NaN;
      const floors = r.floors.filter((f) => f.case === name && f.range === range);
      const ratio = floors.length > 0 ? Math.max(...floors.map((f) => (reads.find((x) => x?.endpoint === f.endpoint)?.warm.p50 ?? NaN) / f.timing.p50)) : NaN;
      // Only stores holding the same data compare: imports chunked differently form different sessions (two imports never
      // continue each other's sessions, docs/behaviour.md), so a session crossing a chunk's end is two in one store, one in the other.
      const same = other && other.progress.data === r.progress.data ? reads.every((x) => !x || other.reads.find((y) => y.case === x.case && y.range === x.range && y.endpoint === x.endpoint)?.json === x.json) : undefined;
      rows.push([
        name, range, ...reads.map((x) => (x ? `${ms(x.warm.p50)}${x.warm.runs === 0 ? '*' : ''}` : '')), ms(Math.max(...reads.map((x) => x?.first ?? 0))),
        Number.isNaN(target) ? '' : `${int(target)}`, Number.isNaN(target) ? '' : worst <= target ? 'yes' : '**no**',
        Number.isNaN(ratio) || (r.engine === 'sqlite' && worst <= target) ? '' : r.engine === 'server' ? `${ratio.toFixed(2)}x` : `${ms(floors[0]!.timing.p50)} (worst ${ratio.toFixed(2)}x)`,
        same === undefined ? '' : same ? 'yes' : '**NO**',
      ]);
    }
  }
  return table(['case', 'range', ...YEAR_ENDPOINTS, 'slowest first call', 'target', 'met', r.engine === 'server' ? 'worst / floor' : 'raw floor ms, where missed', 'same JSON as the other store'], rows);
}

async function main() {
  if (!args.reuse && parts.has('import')) rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  log(`${int(pageviews)} pageviews over ${num('days')} days into ${folder} (${engines.join(', ')})`);
  const results: EngineResult[] = [];
  for (const engine of engines) {
    results.push(parts.has('import') || parts.has('reads') ? await runEngine(engine) : (JSON.parse(readFileSync(resultFile(engine), 'utf8')) as EngineResult));
  }
  // The other store's answers from an earlier run of the same data, if this run read one store only.
  const known = (engine: Engine) => results.find((r) => r.engine === engine)
    ?? (existsSync(resultFile(engine)) ? (JSON.parse(readFileSync(resultFile(engine), 'utf8')) as EngineResult) : undefined);
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, Node ${process.version}`;
  console.log(`## A year: ${int(pageviews)} pageviews over ${num('days')} days (${machine})\n`);
  console.log(table(['store', 'events', 'import events/s', 'import peak RSS', 'MB per million events', 'RSS during the import (events: MB)'], results.map((r) => [
    r.version, int(r.progress.events), int((r.progress.events / r.progress.importMs) * 1000), `${int(r.progress.peakRssKb / 1024)} MB`,
    int((r.bytes / r.progress.events) * 1e6 / 1e6), r.progress.rss.filter((_, i, all) => i % Math.max(1, Math.ceil(all.length / 6)) === 0).map(([e, mb]) => `${int(e / 1e6)}M: ${mb}`).join(', '),
  ])));
  for (const r of results) {
    if (r.reads.length === 0) continue;
    const other = known(r.engine === 'sqlite' ? 'server' : 'sqlite');
    console.log(`\n### ${r.version}: HTTPS p50 of warm calls, ms (load ${r.load.before} before, ${r.load.after} after; server RSS ${int(r.rss?.nowMb ?? NaN)} MB, peak ${int(r.rss?.peakMb ?? NaN)} MB)\n`);
    console.log(readsTable(r, other));
    if (r.reads.some((x) => x.warm.runs === 0)) console.log(`\n\\* one call only: the first took over ${int(num('slow-ms') * 15)} ms.`);
  }
  for (const engine of engines) {
    const growth = growthTable(resolve(String(args.dir)), engine);
    if (growth) console.log(`\n### Growth, ${engine === 'sqlite' ? 'SQLite' : 'clickhouse-server'}: the slowest endpoint's warm p50 (ms) at each size, and its factor per tenfold of data\n\n${growth}`);
  }
}

await main();
