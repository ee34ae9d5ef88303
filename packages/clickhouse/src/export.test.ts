import { testExportRoundTrip } from '@siteline/core/testing';
import { afterAll, describe } from 'vitest';
import { createClickHouseStorage } from './clickhouse-storage.js';
import { clickhouseAvailable, startClickHouse, startClickHouseCluster, warnIfUnavailable, type TestCluster, type TestServer } from './test-server.js';

warnIfUnavailable('export round trip on ClickHouse');

let server: Promise<TestServer> | undefined;
let cluster: Promise<TestCluster> | undefined;
let databases = 0;
afterAll(async () => {
  await (await server)?.stop();
  await (await cluster)?.stop();
});

describe.skipIf(!clickhouseAvailable)('ClickHouse', () => {
  testExportRoundTrip({
    name: 'clickhouse, one server',
    create: async () => {
      const s = createClickHouseStorage({ url: (await (server ??= startClickHouse())).url, database: `export_${++databases}` });
      await s.migrate();
      return s;
    },
  });
  testExportRoundTrip({
    name: 'clickhouse, two shards',
    create: async () => {
      const c = await (cluster ??= startClickHouseCluster(2));
      const nodes = c.servers.map((n) => n.url);
      const s = createClickHouseStorage({ url: nodes[0]!, database: `export_${++databases}`, cluster: c.cluster, nodes });
      await s.migrate();
      return s;
    },
  });
});
