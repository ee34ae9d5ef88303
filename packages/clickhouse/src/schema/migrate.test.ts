import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe } from 'vitest';
import { createClickHouseStorage } from '../clickhouse-storage.js';
import { migrationCases } from '../testing/migration-cases.js';
import { clickhouseAvailable, startClickHouse, startClickHouseCluster, warnIfUnavailable, type TestCluster, type TestServer } from '../testing/test-server.js';

warnIfUnavailable('ClickHouse migrations');

describe.skipIf(!clickhouseAvailable)('migrating a populated database, one server', () => {
  let server: TestServer;
  let client: ClickHouseClient;
  beforeAll(async () => {
    server = await startClickHouse();
    client = createClient({ url: server.url });
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });
  migrationCases(() => ({
    target: { database: 'upgraded' },
    client,
    servers: [client],
    open: () => createClickHouseStorage({ url: server.url, database: 'upgraded' }),
  }));
});

describe.skipIf(!clickhouseAvailable)('migrating a populated database, two shards', () => {
  let cluster: TestCluster;
  let clients: ClickHouseClient[] = [];
  beforeAll(async () => {
    cluster = await startClickHouseCluster(2);
    clients = cluster.servers.map((s) => createClient({ url: s.url }));
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await cluster?.stop();
  });
  migrationCases(() => ({
    target: { database: 'upgraded', cluster: cluster.cluster },
    client: clients[0]!,
    servers: clients,
    open: () => createClickHouseStorage({ url: cluster.servers[0]!.url, database: 'upgraded', cluster: cluster.cluster, nodes: cluster.servers.map((s) => s.url) }),
  }));
});
