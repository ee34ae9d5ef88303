import { testExportRoundTrip, testStorage } from '@siteline/core/testing';
import { describe } from 'vitest';
import { chdbConnection, chdbUnavailable } from './testing/chdb-harness.js';
import { createClickHouseStorage } from './clickhouse-storage.js';

if (chdbUnavailable) console.warn(`SKIPPED storage conformance and export round trip on chdb: ${chdbUnavailable}`);

let databases = 0;
const store = {
  name: 'clickhouse 26.x in-process (chdb)',
  create: async () => {
    const s = createClickHouseStorage({ connection: chdbConnection(), database: `conformance_${++databases}` });
    await s.migrate();
    return s;
  },
};

describe.skipIf(chdbUnavailable !== undefined)('ClickHouse 26.x (chdb)', () => {
  testStorage(store);
  testExportRoundTrip(store); // issue 27: every endpoint answers the same after importing an export
});
