import { testExportRoundTrip, testStorage } from '@siteline/core/testing';
import { afterAll, describe } from 'vitest';
import { createClickHouseStorage } from './clickhouse-storage.js';
import { clickhouseAvailable, startClickHouse, startClickHouseCluster, warnIfUnavailable, type TestCluster, type TestServer } from './testing/test-server.js';

warnIfUnavailable('storage conformance and export round trip on ClickHouse');

let server: Promise<TestServer> | undefined;
let cluster: Promise<TestCluster> | undefined;
let databases = 0;
afterAll(async () => {
  await (await server)?.stop();
  await (await cluster)?.stop();
});

/** A new database on one server, and on a two-shard cluster; both servers started once for the file. */
const STORES = [
  {
    name: 'clickhouse, one server',
    create: async () => {
      const s = createClickHouseStorage({ url: (await (server ??= startClickHouse())).url, database: `conformance_${++databases}` });
      await s.migrate();
      return s;
    },
  },
  {
    name: 'clickhouse, two shards',
    create: async () => {
      const c = await (cluster ??= startClickHouseCluster(2));
      const nodes = c.servers.map((n) => n.url);
      const s = createClickHouseStorage({ url: nodes[0]!, database: `conformance_${++databases}`, cluster: c.cluster, nodes });
      await s.migrate();
      return s;
    },
  },
];

describe.skipIf(!clickhouseAvailable)('ClickHouse', () => {
  for (const store of STORES) testStorage(store);
  // The export of issue 27: every endpoint answers the same after importing an export (export-roundtrip.ts).
  for (const store of STORES) testExportRoundTrip(store);
});
