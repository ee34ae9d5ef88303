import type { Storage } from '@siteline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouseStorage, type ClickHouseStorage } from './clickhouse-storage.js';
import { differentialCases, differentialMismatches, loadDifferential, propertyCoverageGaps, totalPageviews } from './testing/differential-run.js';
import { clickhouseAvailable, startClickHouse, startClickHouseCluster, warnIfUnavailable, type TestCluster, type TestServer } from './testing/test-server.js';

/**
 * Differential test: the generated dataset of differential-run.ts in the
 * SQLite store, one ClickHouse server and a two-shard ClickHouse cluster;
 * every report must give byte-identical JSON from all three.
 */
warnIfUnavailable('differential test SQLite vs ClickHouse');

describe.skipIf(!clickhouseAvailable)('differential: SQLite vs ClickHouse (one server, two shards)', () => {
  let server: TestServer;
  let cluster: TestCluster;
  let sqlite: Storage;
  let stores: { name: string; storage: ClickHouseStorage }[] = [];

  beforeAll(async () => {
    [server, cluster] = await Promise.all([startClickHouse(), startClickHouseCluster(2)]);
    const nodes = cluster.servers.map((s) => s.url);
    stores = [
      { name: 'one server', storage: createClickHouseStorage({ url: server.url, database: 'differential' }) },
      { name: 'two shards', storage: createClickHouseStorage({ url: nodes[0]!, database: 'differential', cluster: cluster.cluster, nodes }) },
    ];
    for (const { storage } of stores) await storage.migrate();
    sqlite = await loadDifferential(stores.map((s) => s.storage));
  });
  afterAll(async () => {
    await sqlite?.close();
    for (const { storage } of stores) await storage.close();
    await server?.stop();
    await cluster?.stop();
  });

  it('imported tens of thousands of events', async () => {
    expect(await totalPageviews(sqlite)).toBeGreaterThan(20_000);
  });

  it('has properties, goals and filters by them to compare (not only empty answers)', async () => {
    expect(await propertyCoverageGaps(sqlite)).toEqual([]);
  });

  it('gives identical JSON for every report, site and range', async () => {
    const mismatches = await differentialMismatches(sqlite, stores);
    expect(mismatches.slice(0, 5).join('\n')).toBe('');
    expect(differentialCases().length).toBeGreaterThan(250);
  }, 900_000); // two stores over ~1,000 reports each; minutes on a shared, loaded 2-core machine
});
