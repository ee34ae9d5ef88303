/**
 * The year profile's import (year-import.ts forks it): every bench site's generated lines into
 * one store, in chunks of `chunk` lines, each chunk one `importEvents` call fed line by line
 * (the process holds one chunk's staged events, never its lines). Resumable: after each chunk
 * the progress file says how many of each site's chunks are in; a new run skips those (it
 * generates them again, which is cheap, and imports nothing) and goes on. A chunk whose import
 * committed before its progress was written is refused as a duplicate and counted as in.
 * Reports progress and, at the end, events, time and peak RSS to the parent.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { DuplicateImportError } from '../../packages/core/src/errors.js';
import { importEvents } from '../../packages/core/src/import/import.js';
import type { Storage } from '../../packages/core/src/storage/types.js';
import { createSqliteStore } from '../../packages/core/src/storage/sqlite/sqlite-storage.js';
import { createClickHouseStorage } from '../../packages/clickhouse/src/clickhouse-storage.js';
import { type BenchSite, createBenchSite, type DatasetOptions, siteLines } from './dataset.js';

export interface YearImportSetup {
  /** `sqlite`: `target` is the database file; `server`: `target` is a clickhouse-server's URL (database `bench`). */
  engine: 'sqlite' | 'server';
  target: string;
  sites: BenchSite[];
  lines: DatasetOptions;
  /** The progress file (JSON, `YearProgress`). */
  progress: string;
}

export interface YearProgress {
  /** What the data is: a progress file of other data is not resumed. */
  data: string;
  /** Chunks of each site in the store. */
  chunks: Record<string, number>;
  events: number;
  /** Milliseconds spent in `importEvents` over every run, and the largest RSS any run reached. */
  importMs: number;
  peakRssKb: number;
  /** RSS after every chunk: [events so far, MB]. */
  rss: [number, number][];
  done: boolean;
}

export type YearImportMessage = { progress: string } | { done: YearProgress } | { error: string };

const send = (message: YearImportMessage) => new Promise<void>((resolve) => process.send!(message, () => resolve()));

/** The progress file's content for this data, or a fresh one. */
export function readProgress(file: string, data: string): YearProgress {
  if (existsSync(file)) {
    const known = JSON.parse(readFileSync(file, 'utf8')) as YearProgress;
    if (known.data === data) return known;
  }
  return { data, chunks: {}, events: 0, importMs: 0, peakRssKb: 0, rss: [], done: false };
}

function writeProgress(file: string, progress: YearProgress): void {
  writeFileSync(`${file}.tmp`, `${JSON.stringify(progress)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** `count` lines of `lines`, one at a time; `state.ended` once `lines` has none left. */
function* take(lines: Iterator<string>, count: number, state: { ended: boolean }): Generator<string> {
  for (let i = 0; i < count; i++) {
    const next = lines.next();
    if (next.done) {
      state.ended = true;
      return;
    }
    yield next.value;
  }
}

async function run(setup: YearImportSetup): Promise<YearProgress> {
  const data = JSON.stringify({ sites: setup.sites, lines: setup.lines });
  const progress = readProgress(setup.progress, data);
  if (progress.done) return progress;
  const storage: Storage & { migrate?: () => Promise<void>; db?: { pragma(s: string): unknown } } = setup.engine === 'sqlite'
    ? createSqliteStore(setup.target)
    : createClickHouseStorage({ url: setup.target, database: 'bench' });
  await storage.migrate?.();
  const started = performance.now();
  const startedMs = progress.importMs;
  const startedEvents = progress.events;
  const expected = setup.sites.reduce((sum, s) => sum + s.pageviews, 0);
  let lastNote = 0;
  for (const site of setup.sites) {
    if (!(await storage.getSite(site.id))) await createBenchSite(storage, site);
    const lines = siteLines(site, setup.lines)[Symbol.iterator]();
    const state = { ended: false };
    // Chunks already in: generated again (the generator has no other way to its later days), not imported.
    for (let c = 0; c < (progress.chunks[site.id] ?? 0); c++) for (const _ of take(lines, setup.lines.chunk, state));
    for (;;) {
      const first = lines.next();
      if (first.done) break;
      let count = 0;
      const chunk = (function* () {
        count++;
        yield first.value;
        for (const line of take(lines, setup.lines.chunk - 1, state)) {
          count++;
          yield line;
        }
      })();
      const t = performance.now();
      try {
        await importEvents(storage, chunk);
      } catch (error) {
        // Committed by an earlier run that stopped before writing its progress.
        if (!(error instanceof DuplicateImportError)) throw error;
      }
      progress.importMs += performance.now() - t;
      progress.events += count;
      progress.chunks[site.id] = (progress.chunks[site.id] ?? 0) + 1;
      const rssKb = process.memoryUsage.rss() / 1024;
      progress.peakRssKb = Math.max(progress.peakRssKb, process.resourceUsage().maxRSS, rssKb);
      progress.rss.push([progress.events, Math.round(rssKb / 1024)]);
      writeProgress(setup.progress, progress);
      if (performance.now() - lastNote > 10_000 || state.ended) {
        lastNote = performance.now();
        const rate = ((progress.events - startedEvents) / (progress.importMs - startedMs)) * 1000;
        // Events run about 1.08 times the pageviews asked for (custom events): the estimate of what is left.
        const left = Math.max(0, expected * 1.08 - progress.events);
        await send({
          progress: `${site.id}: ${progress.events.toLocaleString('en-US')} events (~${Math.min(100, (progress.events / (expected * 1.08)) * 100).toFixed(0)}%), `
            + `${Math.round(rate).toLocaleString('en-US')} events/s, RSS ${Math.round(rssKb / 1024)} MB, ~${Math.round(left / rate / 60)} min left, `
            + `${((performance.now() - started) / 60_000).toFixed(1)} min this run`,
        });
      }
    }
  }
  storage.db?.pragma('wal_checkpoint(TRUNCATE)');
  await storage.close();
  progress.done = true;
  progress.peakRssKb = Math.max(progress.peakRssKb, process.resourceUsage().maxRSS);
  writeProgress(setup.progress, progress);
  return progress;
}

process.once('message', (setup: YearImportSetup) => {
  run(setup).then(
    async (done) => {
      await send({ done });
      process.exit(0);
    },
    async (error: unknown) => {
      await send({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      process.exit(1);
    },
  );
});
