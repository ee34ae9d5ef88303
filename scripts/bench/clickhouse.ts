/**
 * The ClickHouse column of the bench: a real clickhouse-server on loopback
 * (the test harness of packages/clickhouse), the same generated sites and
 * lines imported through `importEvents`, every endpoint timed through the
 * core and its JSON compared with the SQLite store's.
 */
import { createClickHouseStorage } from '../../packages/clickhouse/src/clickhouse-storage.js';
import { clickhouseAvailable, serverBinary, startClickHouse } from '../../packages/clickhouse/src/test-server.js';
import { importEvents } from '../../packages/core/src/import/import.js';
import { createSite } from '../../packages/core/src/sites/sites.js';
import type { Storage } from '../../packages/core/src/storage/types.js';
import type { EndpointName } from '../../packages/core/src/types.js';
import { time, type Timing } from './measure.js';

export interface ClickHouseResult {
  importPerSecond: number;
  endpoints: Map<EndpointName, { timing: Timing; json: string }>;
}

export interface ClickHouseBenchOptions {
  sites: { id: string; name: string; timezone: string; domain: string }[];
  /** The same import lines the SQLite store got, per site, in chunks. */
  chunks: (siteId: string) => Iterable<string[]>;
  endpoints: EndpointName[];
  runs: number;
  run: (storage: Storage, endpoint: EndpointName) => () => Promise<unknown>;
  log: (text: string) => void;
}

/** Why there is no ClickHouse column, or undefined when there can be one. */
export const clickhouseUnavailable = (): string | undefined => (clickhouseAvailable ? undefined : serverBinary.reason);

export async function benchClickHouse(options: ClickHouseBenchOptions): Promise<ClickHouseResult> {
  const server = await startClickHouse();
  try {
    const storage = createClickHouseStorage({ url: server.url, database: 'bench' });
    await storage.migrate();
    let events = 0;
    let importMs = 0;
    for (const site of options.sites) {
      await createSite(storage, site);
      for (const lines of options.chunks(site.id)) {
        const t = performance.now();
        await importEvents(storage, lines);
        importMs += performance.now() - t;
        events += lines.length;
        options.log(`clickhouse: imported ${events.toLocaleString('en-US')} events`);
      }
    }
    const endpoints = new Map<EndpointName, { timing: Timing; json: string }>();
    for (const endpoint of options.endpoints) {
      await options.run(storage, endpoint)(); // first call outside the timing, as for SQLite's warm runs
      const { timing, result } = await time(options.runs, options.run(storage, endpoint));
      endpoints.set(endpoint, { timing, json: JSON.stringify(result) });
    }
    await storage.close();
    return { importPerSecond: (events / importMs) * 1000, endpoints };
  } finally {
    await server.stop();
  }
}
