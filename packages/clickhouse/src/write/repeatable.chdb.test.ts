import { afterAll, beforeAll, describe } from 'vitest';
import { createClickHouseStorage, type ClickHouseStorage } from '../clickhouse-storage.js';
import { clientIO } from '../connection/client-io.js';
import { chdbConnection, chdbUnavailable } from '../testing/chdb-harness.js';
import { repeatableWriteCases } from '../testing/repeatable-cases.js';
import type { WriterIO } from './writer.js';

if (chdbUnavailable) console.warn(`SKIPPED repeatable writes on chdb: ${chdbUnavailable}`);

describe.skipIf(chdbUnavailable !== undefined)('repeatable writes (planWrite, applyWrite), 26.x in-process (chdb)', () => {
  const target = { database: 'repeatable' };
  let storage: ClickHouseStorage;
  let io: WriterIO;
  beforeAll(async () => {
    const connection = chdbConnection();
    storage = createClickHouseStorage({ connection, ...target });
    await storage.migrate();
    io = clientIO(storage.client, target, false, connection).io;
  });
  afterAll(async () => {
    await storage?.close();
  });
  repeatableWriteCases(() => ({ storage, io, target }));
});
