/**
 * An import in a process of its own (forked by import-memory.ts): what `siteline import`
 * does (cli/import.ts: the backend of `DATABASE_URL` opened as a tool, `importEvents` on a
 * read stream of the file), on the sources, into a fresh database. Nothing else runs here,
 * so `maxRSS` is the import's.
 */
import { createReadStream } from 'node:fs';
import { importEvents } from '../../packages/core/src/import/import.js';
import { createSite } from '../../packages/core/src/sites/sites.js';
import { openSqliteBackend } from '../../packages/core/src/storage/sqlite/sqlite-backend.js';
import type { BenchSite } from './dataset.js';

process.once('message', async ({ file, db, site }: { file: string; db: string; site: BenchSite }) => {
  try {
    const backend = openSqliteBackend(db);
    await createSite(backend.storage, site);
    const started = performance.now();
    await importEvents(backend.storage, createReadStream(file), { onProgress: () => {} });
    const seconds = (performance.now() - started) / 1000;
    await backend.close();
    process.send!({ result: { seconds, peakRssKb: process.resourceUsage().maxRSS } }, () => process.exit(0));
  } catch (error) {
    process.send!({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () => process.exit(1));
  }
});
