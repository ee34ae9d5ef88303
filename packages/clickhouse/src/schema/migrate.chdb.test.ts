import type { ClickHouseClient } from '@clickhouse/client';
import { beforeAll, describe } from 'vitest';
import { chdbClient, chdbConnection, chdbUnavailable } from '../testing/chdb-harness.js';
import { createClickHouseStorage } from '../clickhouse-storage.js';
import { migrationCases } from '../testing/migration-cases.js';

if (chdbUnavailable) console.warn(`SKIPPED ClickHouse migrations on chdb: ${chdbUnavailable}`);

describe.skipIf(chdbUnavailable !== undefined)('migrating a populated database, ClickHouse 26.x (chdb)', () => {
  let client: ClickHouseClient;
  beforeAll(() => {
    client = chdbClient();
  });
  migrationCases(() => ({
    target: { database: 'upgraded' },
    client,
    servers: [client],
    open: () => createClickHouseStorage({ connection: chdbConnection(), database: 'upgraded' }),
  }));
});
