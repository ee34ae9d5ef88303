import { createSite, createSqliteStorage, getStats, importEvents, parseQuery, REPORTS, type EndpointName, type RawParams, type Storage } from '@siteline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouseStorage } from './clickhouse-storage.js';
import { DIFF_SITES, generateDiffData } from './differential-data.js';
import { clickhouseAvailable, startClickHouse, startClickHouseCluster, warnIfUnavailable, type TestCluster, type TestServer } from './test-server.js';

/**
 * Differential test: one generated dataset (about 30,000 events, four sites
 * in four time zones) imported through the core's `importEvents` into the
 * SQLite store, one ClickHouse server and a two-shard ClickHouse cluster;
 * every report must give byte-identical JSON from all three.
 */
warnIfUnavailable('differential test SQLite vs ClickHouse');

const SALT = (day: string) => `differential-salt-${day}`;

/** Reports to compare: [endpoint, params, now]. */
function cases(): [EndpointName, Record<string, string>, string?][] {
  const out: [EndpointName, Record<string, string>, string?][] = [];
  const ranges = [
    { from: '2026-10-15', to: '2026-12-05' },
    { from: '2026-10-28', to: '2026-11-03' },
    { from: '2026-11-01', to: '2026-11-02' },
    { from: '2026-11-29', to: '2026-11-30' },
    { from: '2025-01-01', to: '2025-01-31' },
  ];
  for (const site of DIFF_SITES) {
    for (const range of ranges) {
      const p = { site_id: site.id, ...range };
      out.push(['stats', p], ['timeseries', p], ['pages', { ...p, limit: '100' }], ['referrers', p], ['channels', p]);
      out.push(['locations', p], ['devices', p], ['devices', { ...p, breakdown: 'browser' }], ['devices', { ...p, breakdown: 'os' }]);
      out.push(['events', p], ['events', { ...p, name: 'signup' }], ['campaigns', p]);
    }
    out.push(['stats', { site_id: site.id, period: '7d' }, '2026-11-10T06:00:00Z'], ['pages', { site_id: site.id, period: '1d' }, '2026-11-10T23:30:00Z']);
    for (const now of ['2026-11-05T12:00:00Z', '2026-11-10T18:03:00Z', '2026-11-20T09:30:00Z', '2026-11-25T00:01:00Z']) {
      out.push(['live', { site_id: site.id }, now]);
    }
  }
  return out;
}

const report = (storage: Storage, [endpoint, params, now]: [EndpointName, RawParams, string?]) =>
  REPORTS[endpoint](storage, parseQuery(endpoint, params), now ? { now: Date.parse(now) } : {});

describe.skipIf(!clickhouseAvailable)('differential: SQLite vs ClickHouse (one server, two shards)', () => {
  let server: TestServer;
  let cluster: TestCluster;
  let sqlite: Storage;
  let stores: { name: string; storage: Storage }[] = [];

  beforeAll(async () => {
    [server, cluster] = await Promise.all([startClickHouse(), startClickHouseCluster(2)]);
    const nodes = cluster.servers.map((s) => s.url);
    stores = [
      { name: 'one server', storage: createClickHouseStorage({ url: server.url, database: 'differential' }) },
      { name: 'two shards', storage: createClickHouseStorage({ url: nodes[0]!, database: 'differential', cluster: cluster.cluster, nodes }) },
    ];
    sqlite = createSqliteStorage(':memory:');
    for (const { storage } of stores) await (storage as ReturnType<typeof createClickHouseStorage>).migrate();
    for (const storage of [sqlite, ...stores.map((s) => s.storage)]) {
      for (const site of DIFF_SITES) await createSite(storage, site);
    }
    // Import once; the same stored events go to every store.
    const tee: Storage = {
      ...sqlite,
      writeEvents: async (events, record) => {
        await sqlite.writeEvents(events, record);
        for (const { storage } of stores) await storage.writeEvents(events, record);
      },
    };
    // Out of order: the last slice first, then the first, then the middle one.
    const [first, middle, last] = generateDiffData();
    for (const batch of [last!, first!, middle!]) {
      await importEvents(tee, batch.map((line) => JSON.stringify(line)), { salt: SALT });
    }
  });
  afterAll(async () => {
    await sqlite?.close();
    for (const { storage } of stores) await storage.close();
    await server?.stop();
    await cluster?.stop();
  });

  it('imported tens of thousands of events', async () => {
    let total = 0;
    for (const site of DIFF_SITES) total += (await getStats(sqlite, parseQuery('stats', { site_id: site.id, from: '2026-10-15', to: '2026-12-05' }))).pageviews;
    expect(total).toBeGreaterThan(20_000);
  });

  it('gives identical JSON for every report, site and range', async () => {
    const mismatches: string[] = [];
    for (const c of cases()) {
      const expected = JSON.stringify(await report(sqlite, c));
      for (const { name, storage } of stores) {
        const actual = JSON.stringify(await report(storage, c));
        if (actual !== expected) mismatches.push(`${name} ${JSON.stringify(c)}\n  sqlite:     ${expected.slice(0, 400)}\n  clickhouse: ${actual.slice(0, 400)}`);
      }
    }
    expect(mismatches.slice(0, 5).join('\n')).toBe('');
    expect(cases().length).toBeGreaterThan(250);
  }, 300_000);
});
