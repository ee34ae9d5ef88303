/**
 * Export at scale: `openExport` (what `GET /export` and `siteline export` stream) of the large
 * site's 30 days, written to /dev/null through a stream that waits for `drain`, as the HTTP
 * response does. Run in a process of its own (export-child.ts) that opens the store and does
 * nothing else, so its peak RSS is the export's: it must not grow with the data (1M vs 10M).
 */
import { fork } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { openExport } from '../../packages/core/src/export/export-events.js';
import { parseExportQuery } from '../../packages/core/src/query/parse.js';
import type { Storage } from '../../packages/core/src/storage/types.js';
import { int, table } from './measure.js';

export interface ExportResult {
  store: string;
  events: number;
  seconds: number;
  /** Peak RSS of the exporting process (`maxRSS`), KB. */
  peakRssKb: number;
  /** RSS once the store is open, before the export, KB. */
  openRssKb: number;
}

/** Where the child finds the store: a SQLite file, or a ClickHouse server's URL and database. */
export type ExportTarget = { kind: 'sqlite'; file: string } | { kind: 'clickhouse'; url: string; database: string };

/** Exports the site's 30 days before `readNow` to /dev/null, waiting for drain; counts lines. */
export async function measureExport(storage: Storage, siteId: string, readNow: number): Promise<Omit<ExportResult, 'store' | 'openRssKb'> & { sampledPeakRssKb: number }> {
  const started = performance.now();
  let sampledPeakRssKb = process.memoryUsage.rss() / 1024;
  const { chunks } = await openExport(storage, parseExportQuery({ site_id: siteId, period: '30d' }), { now: readNow });
  const sink = createWriteStream('/dev/null');
  let events = 0;
  for await (const chunk of chunks) {
    for (let i = chunk.indexOf('\n'); i !== -1; i = chunk.indexOf('\n', i + 1)) events++;
    if (!sink.write(chunk)) await once(sink, 'drain');
    sampledPeakRssKb = Math.max(sampledPeakRssKb, process.memoryUsage.rss() / 1024);
  }
  sink.end();
  await once(sink, 'finish');
  return { events, seconds: (performance.now() - started) / 1000, peakRssKb: process.resourceUsage().maxRSS, sampledPeakRssKb };
}

/**
 * `measureExport` in this process, for chdb (its data lives in the process that imported it):
 * the peak is RSS sampled after every chunk, since `maxRSS` holds the import's peak.
 */
export async function exportInProcess(store: string, storage: Storage, siteId: string, readNow: number): Promise<ExportResult> {
  const openRssKb = process.memoryUsage.rss() / 1024;
  const { events, seconds, sampledPeakRssKb } = await measureExport(storage, siteId, readNow);
  return { store, events, seconds, openRssKb, peakRssKb: sampledPeakRssKb };
}

/** `measureExport` in a fresh process (export-child.ts) on `target`. */
export function exportInChild(store: string, target: ExportTarget, siteId: string, readNow: number): Promise<ExportResult> {
  const child = fork(fileURLToPath(new URL('./export-child.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    let result: ExportResult | undefined;
    child.on('message', (message: { result?: Omit<ExportResult, 'store'>; error?: string }) => {
      if (message.error) reject(new Error(`export (${store}): ${message.error}`));
      else result = { store, ...message.result! };
    });
    child.on('error', reject);
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`export (${store}): process exited ${code}`))));
    child.send({ target, siteId, readNow });
  });
}

/** The export rows of the report. */
export function exportTable(rows: readonly ExportResult[]): string {
  return table(['store', 'events exported', 'seconds', 'events/s', 'RSS with the store open', 'peak RSS of the export process'], rows.map((r) => [
    r.store, int(r.events), r.seconds.toFixed(1), int(r.events / r.seconds), `${int(r.openRssKb / 1024)} MB`, `${int(r.peakRssKb / 1024)} MB`,
  ]));
}
