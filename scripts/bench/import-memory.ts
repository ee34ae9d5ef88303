/**
 * Import memory at two sizes (issue 26): the bench's generated lines of the large site, cut
 * at each size and written to an NDJSON file, each imported as `siteline import` does it
 * in a process of its own (import-memory-child.ts) into a fresh database. Peak RSS must not
 * grow with the file: the larger import's at most 1.2x the smaller's.
 */
import { fork } from 'node:child_process';
import { createWriteStream, rmSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoNdjson } from '../../packages/core/src/demo/index.js';
import type { BenchSite, DatasetOptions } from './dataset.js';
import { int, removeDatabase, table } from './measure.js';

export interface ImportMemoryRow {
  events: number;
  seconds: number;
  /** Peak RSS of the importing process (`maxRSS`), KB. */
  peakRssKb: number;
}

/** Writes the first `events` lines of the site's traffic (pageviews sized so there are enough) to `file`. */
async function writeLines(file: string, site: BenchSite, events: number, o: DatasetOptions): Promise<void> {
  const out = createWriteStream(file);
  let n = 0;
  // About 1.08 events per pageview in the demo traffic: 10% more pageviews than events are enough.
  for (const line of demoNdjson({ siteId: site.id, days: o.days, pageviewsPerDay: (events * 1.1) / o.days, seed: o.seed, end: o.endMs, timezone: site.timezone, domain: site.domain })) {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
    if (++n === events) break;
  }
  out.end();
  await once(out, 'finish');
}

/** `siteline import` of `file` into a fresh `db` in a process of its own. */
function importInChild(file: string, db: string, site: BenchSite): Promise<Omit<ImportMemoryRow, 'events'>> {
  const child = fork(fileURLToPath(new URL('./import-memory-child.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    let result: Omit<ImportMemoryRow, 'events'> | undefined;
    child.on('message', (m: { result?: Omit<ImportMemoryRow, 'events'>; error?: string }) => {
      if (m.error) reject(new Error(`siteline import: ${m.error}`));
      else result = m.result;
    });
    child.on('error', reject);
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`siteline import: process exited ${code}`))));
    child.send({ file, db, site });
  });
}

/** Each size's import, smallest first; the files and databases are removed after. */
export async function benchImportMemory(o: DatasetOptions & { dir: string; site: BenchSite; sizes: readonly number[]; log: (text: string) => void }): Promise<ImportMemoryRow[]> {
  const rows: ImportMemoryRow[] = [];
  for (const events of [...o.sizes].sort((a, b) => a - b)) {
    const file = join(o.dir, `import-${events}.ndjson`);
    const db = join(o.dir, `import-${events}.db`);
    o.log(`import memory: writing ${int(events)} lines`);
    await writeLines(file, o.site, events, o);
    removeDatabase(db);
    o.log(`import memory: siteline import of ${int(events)} events in a process of its own`);
    try {
      rows.push({ events, ...(await importInChild(file, db, o.site)) });
    } finally {
      rmSync(file, { force: true });
      removeDatabase(db);
    }
    o.log(`import memory: peak RSS ${int(rows[rows.length - 1]!.peakRssKb / 1024)} MB`);
  }
  return rows;
}

/** The import memory rows, each with its ratio to the smallest. */
export function importMemoryTable(rows: readonly ImportMemoryRow[]): string {
  const first = rows[0]!;
  return table(['events imported (as siteline import does, own process)', 'seconds', 'events/s', 'peak RSS', 'peak RSS / smallest'], rows.map((r) => [
    int(r.events), r.seconds.toFixed(1), int(r.events / r.seconds), `${int(r.peakRssKb / 1024)} MB`, `${(r.peakRssKb / first.peakRssKb).toFixed(2)}x`,
  ]));
}
