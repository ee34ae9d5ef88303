/**
 * One import in a process of its own (forked by import-formats.ts), as `siteline import`
 * (`--from umami|ga4`) does it: the SQLite backend opened as a tool, the format's import
 * function on the file, into a fresh database. Nothing else runs here, so `maxRSS` is the import's.
 */
import { createReadStream } from 'node:fs';
import { importGa4 } from '../../packages/core/src/import/ga4/ga4.js';
import { importEvents } from '../../packages/core/src/import/import.js';
import { importUmami } from '../../packages/core/src/import/umami/umami.js';
import { createSite } from '../../packages/core/src/sites/sites.js';
import { openSqliteBackend } from '../../packages/core/src/storage/sqlite/sqlite-backend.js';
import type { BenchSite } from './dataset.js';

process.once('message', async ({ format, file, db, site }: { format: 'ndjson' | 'umami' | 'ga4'; file: string; db: string; site: BenchSite }) => {
  try {
    const backend = openSqliteBackend(db);
    await createSite(backend.storage, site);
    const started = performance.now();
    const cpu = process.cpuUsage();
    const summary =
      format === 'ndjson'
        ? await importEvents(backend.storage, createReadStream(file), { onProgress: () => {} })
        : await (format === 'umami' ? importUmami : importGa4)(backend.storage, file, { siteId: site.id, onProgress: () => {} });
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    await backend.close();
    const cpuSeconds = (used.user + used.system) / 1e6;
    process.send!({ result: { seconds, cpuSeconds, events: summary.events, peakRssKb: process.resourceUsage().maxRSS } }, () => process.exit(0));
  } catch (error) {
    process.send!({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () => process.exit(1));
  }
});
