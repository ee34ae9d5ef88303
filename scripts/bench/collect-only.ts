/**
 * `npm run bench -- --collect only`: the collect table alone, on a fresh database per engine
 * (no dataset to import, so it runs in a minute): wrk on the baseline (collect-floor.ts), then
 * on `POST /collect` as the standalone server runs it, on SQLite (group commits in the request
 * thread; also with `SQLITE_SYNCHRONOUS=full`, and on a worker thread) and on a clickhouse-server
 * (worker thread through the fsynced spool), each against the baseline measured in the same run.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { createSite } from '../../packages/core/src/sites/sites.js';
import type { SqliteStore } from '../../packages/core/src/storage/sqlite/sqlite-storage.js';
import { clickhouseAvailable, serverBinary, startClickHouse } from '../../packages/clickhouse/src/testing/test-server.js';
import { openBackend } from '../../packages/http/src/backend.js';
import { measureCollect, wrkInstalled, type CollectResult } from './collect.js';
import { startFloorServer } from './collect-floor.js';
import { BIG } from './dataset.js';
import { int, ms, removeDatabase, table } from './measure.js';
import { certificate, startServer } from './server.js';

export interface CollectOnlyOptions {
  dir: string;
  seconds: number;
  connections: number;
  /** Which collectors: `sqlite` (request thread, also synchronous full, and worker thread), `clickhouse` (clickhouse-server, worker thread and spool). */
  engines: ('sqlite' | 'clickhouse')[];
  log: (text: string) => void;
}

/** The collect table as Markdown, with the machine and the settings it ran with. */
export async function benchCollectOnly(options: CollectOnlyOptions): Promise<string> {
  if (!wrkInstalled()) return 'Collect: n/a (wrk not installed)';
  const { dir, log } = options;
  mkdirSync(dir, { recursive: true });
  const wrk = { seconds: options.seconds, connections: options.connections, dir };
  const rows: [string, CollectResult | string][] = [];
  const site = { id: BIG.id, name: BIG.name, timezone: BIG.timezone, domain: BIG.domain };

  log('collect: wrk on the baseline (bare HTTPS + JSON.parse + one row per beacon on a worker)');
  const floorFile = join(dir, 'floor.db');
  const floor = await startFloorServer(certificate(join(dir, 'tls')), floorFile);
  const baseline = await measureCollect({ ...wrk, url: floor.url, siteId: site.id, domain: site.domain, flush: () => floor.flush(), countStored: () => floor.stored() });
  await floor.close();
  removeDatabase(floorFile);
  rows.push(['baseline: bare HTTPS + JSON.parse, one row per beacon on a worker', baseline]);

  if (options.engines.includes('sqlite')) {
    // As the standalone server runs it (group commits in the request thread), the same with power-loss durability, and on a worker thread.
    const variants = [
      ['SQLite, request thread (as the standalone server runs)', 'normal', false],
      ['SQLite, request thread, SQLITE_SYNCHRONOUS=full (an fsync per commit)', 'full', false],
      ['SQLite, worker thread (`worker` option)', 'normal', true],
    ] as const;
    for (const [name, synchronous, worker] of variants) {
      const file = join(dir, 'collect.db');
      removeDatabase(file);
      const location = { engine: 'sqlite' as const, path: file, synchronous };
      const backend = await openBackend(location, { role: 'serve' });
      await createSite(backend.storage, site);
      const count = (backend.storage as SqliteStore).db.prepare('SELECT COUNT(*) FROM events WHERE site_id = ?').pluck();
      log(`collect: wrk on POST /collect, ${name}`);
      const collector = await startServer(backend, Date.now, join(dir, 'tls'), worker ? { location } : undefined);
      const result = await measureCollect({ ...wrk, url: collector.url, siteId: site.id, domain: site.domain, flush: () => collector.flush(), countStored: () => count.get(site.id) as number });
      await collector.close();
      await backend.close();
      removeDatabase(file);
      rows.push([`POST /collect, ${name}`, result]);
    }
  }

  if (options.engines.includes('clickhouse')) {
    if (!clickhouseAvailable) rows.push(['POST /collect, clickhouse-server', `n/a (${serverBinary.reason})`]);
    else {
      const server = await startClickHouse();
      const location = { engine: 'clickhouse' as const, url: server.url, username: 'default', password: '', database: 'bench_collect' };
      const spool = join(dir, 'spool');
      rmSync(spool, { recursive: true, force: true });
      try {
        const backend = await openBackend(location, { role: 'serve' });
        await createSite(backend.storage, site);
        const sql = async (query: string) => (await (await fetch(`${server.url}/?query=${encodeURIComponent(query)}`)).text()).trim();
        const version = await sql('SELECT version()');
        let stored = 0;
        const count = async () => Number(await sql(`SELECT count() FROM bench_collect.events WHERE site_id = '${site.id}'`));
        log(`collect: wrk on POST /collect, clickhouse-server ${version} (worker thread, spool)`);
        const collector = await startServer(backend, Date.now, join(dir, 'tls'), { location, spool: { dir: spool, maxBytes: 256 * 1024 * 1024 } });
        const result = await measureCollect({
          ...wrk, url: collector.url, siteId: site.id, domain: site.domain,
          flush: async () => {
            await collector.flush();
            stored = await count();
          },
          countStored: () => stored,
        });
        await collector.close();
        await backend.close();
        rows.push([`POST /collect, clickhouse-server ${version}, worker thread through the spool (as the standalone server runs)`, result]);
      } finally {
        await server.stop();
        rmSync(spool, { recursive: true, force: true });
      }
    }
  }

  const f = baseline;
  const body = rows.map(([name, r]) => typeof r === 'string'
    ? [name, r, '', '', '', '', '', '']
    : [name, int(r.storedPerSecond), int(r.requestsPerSecond), ms(r.p50Ms), ms(r.p99Ms), int(r.cpuMicrosPerRequest), int(r.requestThreadMicrosPerRequest), `${((r.storedPerSecond / f.storedPerSecond) * 100).toFixed(0)}%`]);
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, Node ${process.version}`;
  return `Collect: wrk, ${options.connections} keep-alive HTTPS connections, ${options.seconds} s each, on the same ${cpus().length} cores (${machine}); each beacon answered 202 once durable:\n\n${table(
    ['collector', 'stored events/s', 'requests/s', 'p50 ms', 'p99 ms', 'CPU µs/beacon (all threads)', 'request thread busy µs/beacon', 'of baseline'],
    body,
  )}`;
}
