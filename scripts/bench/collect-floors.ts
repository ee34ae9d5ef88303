/**
 * `npm run bench:collect-floors`: the collect table's baseline beside the floors of durable
 * collection (collect-floor-durable.ts) and `POST /collect` as the server runs it, in turns,
 * each round's ratios against that round's baseline, and their medians. What it answers: how
 * much of the gap between the server and the baseline any durable collector with the same
 * derivations pays on this machine (docs/performance.md "Collection").
 * SECONDS_EACH (5) seconds of 16 keep-alive HTTPS connections per run, ROUNDS (3) rounds;
 * the variants to run as the first argument (floor,row,derived,server).
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSite } from '../../packages/core/src/sites/sites.js';
import type { SqliteStore } from '../../packages/core/src/storage/sqlite/sqlite-storage.js';
import { openBackend } from '../../packages/http/src/backend.js';
import { measureCollect, type CollectResult } from './collect.js';
import { startFloorServer } from './collect-floor.js';
import { startDurableFloorServer } from './collect-floor-durable.js';
import { BIG } from './dataset.js';
import { removeDatabase } from './measure.js';
import { certificate, startServer } from './server.js';

const dir = join(tmpdir(), 'siteline-collect-floors');
mkdirSync(dir, { recursive: true });
const seconds = Number(process.env.SECONDS_EACH ?? 5);
const rounds = Number(process.env.ROUNDS ?? 3);
const names = (process.argv[2] ?? 'floor,row,derived,server').split(',');
const site = { id: BIG.id, name: BIG.name, timezone: BIG.timezone, domain: BIG.domain };
const wrk = { seconds, connections: 16, dir };

type Run = (file: string) => Promise<{ result: CollectResult; extra: string }>;
const thread = () => process.threadCpuUsage();
const withThread = async (m: () => Promise<CollectResult>) => {
  const t = thread();
  const result = await m();
  const u = process.threadCpuUsage(t);
  return { result, threadUs: (u.user + u.system) };
};
const walOf = (file: string) => (existsSync(`${file}-wal`) ? (statSync(`${file}-wal`).size / 1e6).toFixed(0) + 'MB' : '-');

const floor: Run = async (file) => {
  const f = await startFloorServer(certificate(join(dir, 'tls')), file);
  const { result, threadUs } = await withThread(() => measureCollect({ ...wrk, url: f.url, siteId: site.id, domain: site.domain, flush: () => f.flush(), countStored: () => f.stored() }));
  await f.close();
  return { result, extra: `main cpu ${(threadUs / result.stored).toFixed(0)}µs` };
};
const durable = (kind: 'row' | 'derived'): Run => async (file) => {
  const f = await startDurableFloorServer(certificate(join(dir, 'tls')), file, kind, site);
  const { result, threadUs } = await withThread(() => measureCollect({ ...wrk, url: f.url, siteId: site.id, domain: site.domain, flush: () => f.flush(), countStored: () => f.stored() }));
  const wal = walOf(file);
  await f.close();
  return { result, extra: `main cpu ${(threadUs / result.stored).toFixed(0)}µs wal ${wal}` };
};
const server: Run = async (file) => {
  const backend = await openBackend({ engine: 'sqlite', path: file }, { role: 'serve' });
  await createSite(backend.storage, site);
  const count = (backend.storage as SqliteStore).db.prepare('SELECT COUNT(*) FROM events WHERE site_id = ?').pluck();
  const collector = await startServer(backend, Date.now, join(dir, 'tls'));
  const { result, threadUs } = await withThread(() => measureCollect({ ...wrk, url: collector.url, siteId: site.id, domain: site.domain, flush: () => collector.flush(), countStored: () => count.get(site.id) as number }));
  const wal = walOf(file);
  await collector.close();
  await backend.close();
  return { result, extra: `main cpu ${(threadUs / result.stored).toFixed(0)}µs wal ${wal}` };
};
const VARIANTS: Record<string, Run> = { floor, row: durable('row'), derived: durable('derived'), server };

const ratios = new Map<string, number[]>();
const rows = new Map<string, string[]>();
for (let round = 0; round < rounds; round++) {
  let base = 0;
  for (const name of names) {
    const file = join(dir, `${name}.db`);
    removeDatabase(file);
    const { result, extra } = await VARIANTS[name]!(file);
    removeDatabase(file);
    if (name === 'floor') base = result.storedPerSecond;
    const ratio = base ? result.storedPerSecond / base : NaN;
    (ratios.get(name) ?? ratios.set(name, []).get(name)!).push(ratio);
    const line = `${name}: ${result.storedPerSecond.toFixed(0)}/s p50 ${result.p50Ms.toFixed(2)} p99 ${result.p99Ms.toFixed(1)} cpu ${result.cpuMicrosPerRequest.toFixed(0)} busy ${result.requestThreadMicrosPerRequest.toFixed(0)} ${extra} ratio ${(ratio * 100).toFixed(0)}%`;
    console.log(`[round ${round + 1}] ${line}`);
    (rows.get(name) ?? rows.set(name, []).get(name)!).push(line);
  }
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
for (const [name, r] of ratios) console.log(`median ${name}: ${(median(r) * 100).toFixed(0)}% of baseline (${r.map((x) => (x * 100).toFixed(0)).join(', ')})`);
