/**
 * The export measurement in a process of its own (forked by export.ts): opens the store,
 * exports, sends back the figures. Nothing else runs here, so `maxRSS` is the export's.
 */
import { createClickHouseStorage } from '../../packages/clickhouse/src/clickhouse-storage.js';
import { createSqliteStore } from '../../packages/core/src/storage/sqlite/sqlite-storage.js';
import type { Storage } from '../../packages/core/src/storage/types.js';
import { type ExportTarget, measureExport } from './export.js';

process.once('message', ({ target, siteId, readNow }: { target: ExportTarget; siteId: string; readNow: number }) => {
  const storage: Storage = target.kind === 'sqlite'
    ? createSqliteStore(target.file, { now: () => readNow })
    : createClickHouseStorage({ url: target.url, database: target.database, now: () => readNow });
  const openRssKb = process.memoryUsage().rss / 1024;
  measureExport(storage, siteId, readNow).then(
    async ({ events, seconds, peakRssKb }) => {
      await storage.close();
      process.send!({ result: { events, seconds, peakRssKb, openRssKb } }, () => process.exit(0));
    },
    (error: unknown) => process.send!({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () => process.exit(1)),
  );
});
