/**
 * Import speed and memory of the foreign formats (issue 39): the same generated events as
 * our NDJSON lines (the floor, measured in the same run), an Umami CSV and a GA4 export, each
 * imported into a fresh SQLite database in a process of its own, at each size, the formats
 * taking turns over `--rounds` rounds (the best round of each counts). Targets: Umami and GA4
 * at >= 50% of NDJSON's events/s; peak RSS flat from the smallest size to the largest. On a
 * shared machine wall time swings with the other processes' load, so the ratio is also given
 * per CPU second of the importing process (its own work, whatever else runs).
 *
 *   npx tsx scripts/bench/import-formats.ts --sizes 1000000,5000000
 */
import { fork } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.js';
import { BIG } from './dataset.js';
import { int, removeDatabase, table } from './measure.js';
import { writeFormats } from './import-formats-files.js';

const FORMATS = ['ndjson', 'umami', 'ga4'] as const;
type Format = (typeof FORMATS)[number];
interface Row { format: Format; size: number; events: number; seconds: number; cpuSeconds: number; peakRssKb: number; bytes: number }

function importInChild(format: Format, file: string, db: string): Promise<Omit<Row, 'format' | 'size' | 'bytes'>> {
  const child = fork(fileURLToPath(new URL('./import-formats-child.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    let result: Omit<Row, 'format' | 'size' | 'bytes'> | undefined;
    child.on('message', (m: { result?: typeof result; error?: string }) => (m.error ? reject(new Error(`${format} import: ${m.error}`)) : (result = m.result)));
    child.on('error', reject);
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`${format} import: process exited ${code}`))));
    child.send({ format, file, db, site: { ...BIG, pageviews: 0 } });
  });
}

const args = benchArgs('tsx scripts/bench/import-formats.ts', {
  sizes: { type: 'string', default: '1000000,5000000' },
  dir: { type: 'string', default: '.bench-import-formats' },
  days: { type: 'string', default: '90' },
  rounds: { type: 'string', default: '1' },
});
const sizes = args.sizes.split(',').map(Number);
const dir = args.dir;
mkdirSync(dir, { recursive: true });
const log = (text: string) => console.error(`[${new Date().toISOString().slice(11, 19)} load ${loadavg().map((l) => l.toFixed(1)).join(' ')}] ${text}`);
const rows: Row[] = [];
for (const size of sizes) {
  const files = { ndjson: join(dir, `events-${size}.ndjson`), umami: join(dir, `website_event-${size}.csv`), ga4: join(dir, `events_${size}.json`) };
  log(`writing ${int(size)} events three ways`);
  await writeFormats({ ...BIG, pageviews: size }, size, files, { days: Number(args.days), seed: 39, endMs: Date.parse('2026-11-01T00:00:00Z') });
  const best = new Map<Format, Row>();
  for (let round = 1; round <= Number(args.rounds); round++) {
    for (const format of FORMATS) {
      const db = join(dir, `${format}-${size}.db`);
      removeDatabase(db);
      log(`${format}: importing ${int(size)} events in a process of its own (round ${round})`);
      const r = await importInChild(format, files[format], db);
      log(`${format}: ${int(r.events / r.seconds)} events/s, ${int(r.events / r.cpuSeconds)} per CPU second, peak RSS ${int(r.peakRssKb / 1024)} MB`);
      const kept = best.get(format);
      if (!kept || r.seconds < kept.seconds) best.set(format, { format, size, ...r, cpuSeconds: Math.min(r.cpuSeconds, kept?.cpuSeconds ?? Infinity), peakRssKb: Math.max(r.peakRssKb, kept?.peakRssKb ?? 0), bytes: statSync(files[format]).size });
      removeDatabase(db);
    }
  }
  rows.push(...FORMATS.map((f) => best.get(f)!));
  for (const file of Object.values(files)) rmSync(file, { force: true });
}
const floor = (size: number) => rows.find((r) => r.format === 'ndjson' && r.size === size)!;
const smallest = (format: Format) => rows.find((r) => r.format === format && r.size === sizes[0])!;
console.log(`\nImport formats (SQLite, each import in a process of its own; load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')})\n`);
const ratio = (r: Row, per: (x: Row) => number) => (r.format === 'ndjson' ? 'floor' : `${((r.events / per(r)) / (floor(r.size).events / per(floor(r.size))) * 100).toFixed(0)}%`);
console.log(table(['format', 'events', 'file', 'seconds', 'events/s', 'vs NDJSON', 'CPU s', 'events / CPU s', 'vs NDJSON (CPU)', 'peak RSS', `peak RSS / ${int(sizes[0]!)}`], rows.map((r) => [
  r.format, int(r.events), `${int(r.bytes / 1048576)} MB`, r.seconds.toFixed(1), int(r.events / r.seconds), ratio(r, (x) => x.seconds),
  r.cpuSeconds.toFixed(1), int(r.events / r.cpuSeconds), ratio(r, (x) => x.cpuSeconds),
  `${int(r.peakRssKb / 1024)} MB`, `${(r.peakRssKb / smallest(r.format).peakRssKb).toFixed(2)}x`,
])));
