import { afterAll, beforeAll, describe } from 'vitest';
import { adapterCases } from './testing/adapter-cases.js';
import { funnelVisitorCases } from './testing/funnel-visitor-cases.js';
import { goalVisitorCases } from './testing/goal-visitor-cases.js';
import { propertyCountCases } from './testing/property-count-cases.js';
import { chdbConnection, chdbUnavailable } from './testing/chdb-harness.js';
import { createClickHouseStorage, type ClickHouseStorage } from './clickhouse-storage.js';

if (chdbUnavailable) console.warn(`SKIPPED ClickHouse adapter on chdb: ${chdbUnavailable}`);

describe.skipIf(chdbUnavailable !== undefined)('ClickHouse adapter, 26.x in-process (chdb)', () => {
  // As on 18.16 (clickhouse-storage.test.ts): every day settled, and 11-02/11-03 hot (read raw).
  describe.each([
    ['every day settled', 'adapter_cases', '2030-01-01T00:00:00Z'],
    ['11-02 and 11-03 hot', 'adapter_cases_hot', '2026-11-03T04:00:00Z'],
  ])('%s', (_name, database, now) => {
    let storage: ClickHouseStorage;
    beforeAll(async () => {
      storage = createClickHouseStorage({ connection: chdbConnection(), database, now: () => Date.parse(now) });
      await storage.migrate();
      await storage.migrate(); // idempotent
    });
    afterAll(async () => {
      await storage?.close();
    });
    adapterCases(() => storage);
  });

  goalVisitorCases((database, now) => createClickHouseStorage({ connection: chdbConnection(), database, now }));
  funnelVisitorCases((database, now) => createClickHouseStorage({ connection: chdbConnection(), database, now }));
  propertyCountCases((database, now) => createClickHouseStorage({ connection: chdbConnection(), database, now }));
});
