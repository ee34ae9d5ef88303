import { afterAll, beforeAll, describe } from 'vitest';
import { createClickHouseStorage, type ClickHouseStorage } from '../clickhouse-storage.js';
import { clientIO } from '../connection/client-io.js';
import { repeatableWriteCases } from '../testing/repeatable-cases.js';
import { clickhouseAvailable, startClickHouse, warnIfUnavailable, type TestServer } from '../testing/test-server.js';
import type { WriterIO } from './writer.js';

warnIfUnavailable('repeatable writes on ClickHouse 18.16');

describe.skipIf(!clickhouseAvailable)('repeatable writes (planWrite, applyWrite), one server', () => {
  const target = { database: 'repeatable' };
  let server: TestServer;
  let storage: ClickHouseStorage;
  let io: WriterIO;
  beforeAll(async () => {
    server = await startClickHouse();
    storage = createClickHouseStorage({ url: server.url, ...target });
    await storage.migrate();
    io = clientIO(storage.client, target, false).io;
  });
  afterAll(async () => {
    await storage?.close();
    await server?.stop();
  });
  repeatableWriteCases(() => ({ storage, io, target }));
});
