/**
 * Issue 26's part of `npm run bench`: a server's start on the bench's database and on the
 * adversarial one (start.ts, adversarial.ts), the first filtered read of a cold range
 * (cold-read.ts), and import memory at two sizes (import-memory.ts). Each can run alone
 * (`--start only`, `--cold-read only`, `--import-memory only`).
 */
import { join } from 'node:path';
import { adversarialDatabase } from './adversarial.js';
import { benchColdRead, coldReadTable } from './cold-read.js';
import { BIG, type BenchSite, type DatasetOptions } from './dataset.js';
import { benchImportMemory, importMemoryTable } from './import-memory.js';
import { int } from './measure.js';
import { certificate } from './server.js';
import { benchStart, startTable, type StartResult } from './start.js';

export interface MemoryBenchOptions extends DatasetOptions {
  dir: string;
  /** The bench's database (the large site's `pageviews` over `days`). */
  file: string;
  pageviews: number;
  start: boolean;
  /** Beacons of the adversarial day (0: the start on the bench's database only). */
  adversarialPageviews: number;
  startSeconds: number;
  connections: number;
  coldRead: boolean;
  runs: number;
  /** Event counts of the import memory runs (none: skipped). */
  importEvents: readonly number[];
  log: (text: string) => void;
}

/** Runs the parts asked for and returns their Markdown. */
export async function benchMemory(o: MemoryBenchOptions): Promise<string> {
  const out: string[] = [];
  if (o.start) {
    certificate(join(o.dir, 'tls'));
    const tls = { certFile: join(o.dir, 'tls', 'cert.pem'), keyFile: join(o.dir, 'tls', 'key.pem') };
    const first = new Date(o.endMs - (o.days - 1) * 86_400_000).toISOString().slice(0, 10);
    const path = `/api/v1/stats?site_id=${BIG.id}&from=${first}&to=${new Date(o.endMs).toISOString().slice(0, 10)}`;
    // The first row is the same server without its warming: what the machine and wrk alone cost the event loop in this run.
    const databases: [string, string, boolean][] = [
      [`bench (${int(o.pageviews)} pageviews), warming off (reference)`, o.file, false],
      [`bench (${int(o.pageviews)} pageviews)`, o.file, true],
    ];
    if (o.adversarialPageviews > 0) {
      const target = join(o.dir, `adversarial-${o.pageviews}-${o.adversarialPageviews}.db`);
      await adversarialDatabase({ source: o.file, target, endMs: o.endMs, pageviews: o.adversarialPageviews, log: o.log });
      databases.push([`adversarial (the same and a day of ${int(o.adversarialPageviews)} unique 2 KB URLs)`, target, true]);
    }
    const rows: StartResult[] = [];
    for (const [database, file, warm] of databases) {
      o.log(`start: ${database}`);
      rows.push(await benchStart({ database, file, now: o.endMs, warm, tls, path, seconds: o.startSeconds, connections: o.connections }));
    }
    out.push(`A server's start (the standalone server in a process of its own, COLUMN_CACHE_MB 256, warming the data's last 30 days; \`wrk\` -c${o.connections} on \`${path}\` until ${o.startSeconds} s after the fork, then 10 s once warm):\n\n${startTable(rows, o.startSeconds)}`);
  }
  if (o.coldRead) {
    o.log('cold read: the first filtered read of a week on a fresh connection');
    const cold = await benchColdRead({ file: o.file, siteId: BIG.id, timezone: BIG.timezone, endMs: o.endMs, runs: o.runs });
    out.push(`The first filtered read of a cold range (${int(o.pageviews)} pageviews; the first week's answer: \`${JSON.stringify(cold.answer)}\`):\n\n${coldReadTable(cold)}`);
  }
  if (o.importEvents.length > 0) {
    const site: BenchSite = { ...BIG, pageviews: 0 };
    const rows = await benchImportMemory({ ...o, site, sizes: o.importEvents });
    out.push(`Import memory (the large site's lines cut at each size; target: the larger at most 1.2x the smaller):\n\n${importMemoryTable(rows)}`);
  }
  return out.length > 0 ? `## Memory and start (issue 26)\n\n${out.join('\n\n')}` : '';
}
