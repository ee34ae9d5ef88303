import { testExportRoundTrip } from '@siteline/core/testing';
import { describe } from 'vitest';
import { chdbConnection, chdbUnavailable } from './chdb-harness.js';
import { createClickHouseStorage } from './clickhouse-storage.js';

if (chdbUnavailable) console.warn(`SKIPPED export round trip on chdb: ${chdbUnavailable}`);

let databases = 0;

describe.skipIf(chdbUnavailable !== undefined)('ClickHouse 26.x (chdb)', () => {
  testExportRoundTrip({
    name: 'clickhouse 26.x in-process (chdb)',
    create: async () => {
      const s = createClickHouseStorage({ connection: chdbConnection(), database: `export_${++databases}` });
      await s.migrate();
      return s;
    },
  });
});
