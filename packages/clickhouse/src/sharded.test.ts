import { createClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapterCases, EVENTS } from './testing/adapter-cases.js';
import { funnelVisitorCases } from './testing/funnel-visitor-cases.js';
import { goalVisitorCases } from './testing/goal-visitor-cases.js';
import { propertyCountCases } from './testing/property-count-cases.js';
import { createClickHouseStorage, type ClickHouseStorage } from './clickhouse-storage.js';
import { clickhouseAvailable, startClickHouseCluster, warnIfUnavailable, type TestCluster } from './testing/test-server.js';

warnIfUnavailable('ClickHouse adapter on two shards');

describe.skipIf(!clickhouseAvailable)('ClickHouse adapter, two shards (Distributed tables)', () => {
  let cluster: TestCluster;
  let storage: ClickHouseStorage;
  let viaSecond: ClickHouseStorage;

  beforeAll(async () => {
    cluster = await startClickHouseCluster(2);
    const nodes = cluster.servers.map((s) => s.url);
    storage = createClickHouseStorage({ url: nodes[0]!, database: 'sharded_cases', cluster: cluster.cluster, nodes });
    await storage.migrate();
    viaSecond = createClickHouseStorage({ url: nodes[1]!, database: 'sharded_cases', cluster: cluster.cluster, nodes });
  });
  afterAll(async () => {
    await storage?.close();
    await viaSecond?.close();
    await cluster?.stop();
  });

  adapterCases(() => storage);
  goalVisitorCases((database, now) => createClickHouseStorage({ url: cluster.servers[0]!.url, database, cluster: cluster.cluster, nodes: cluster.servers.map((s) => s.url), now }));
  funnelVisitorCases((database, now) => createClickHouseStorage({ url: cluster.servers[0]!.url, database, cluster: cluster.cluster, nodes: cluster.servers.map((s) => s.url), now }));
  propertyCountCases((database, now) => createClickHouseStorage({ url: cluster.servers[0]!.url, database, cluster: cluster.cluster, nodes: cluster.servers.map((s) => s.url), now }));

  it('spreads sessions over both shards, each session whole on one', async () => {
    const perShard = [];
    for (const server of cluster.servers) {
      const client = createClient({ url: server.url });
      const result = await client.query({
        query: "SELECT session_id, count() AS n FROM sharded_cases.events_local WHERE site_id = 'ST-t' GROUP BY session_id ORDER BY session_id",
        format: 'JSONEachRow',
      });
      perShard.push(await result.json<{ session_id: string; n: string }>());
      await client.close();
    }
    expect(perShard.every((rows) => rows.length > 0)).toBe(true);
    const all = perShard.flat().map((r) => r.session_id).sort();
    expect(all).toEqual(['A', 'B', 'C', 'D', 'E']); // no session on two shards
    expect(perShard.flat().reduce((sum, r) => sum + Number(r.n), 0)).toBe(EVENTS.length);
  });

  it('answers the same through any server of the cluster', async () => {
    const r = { siteId: 'ST-t', from: '2026-11-02', to: '2026-11-03', startMs: Date.parse('2026-11-02'), endMs: Date.parse('2026-11-04') };
    expect(await viaSecond.summary(r)).toEqual(await storage.summary(r));
    expect(await viaSecond.getSite('ST-t')).toEqual(await storage.getSite('ST-t'));
  });
});
