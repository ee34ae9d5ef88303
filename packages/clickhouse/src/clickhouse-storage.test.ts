import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapterCases } from './adapter-cases.js';
import { createClickHouseStorage, type ClickHouseStorage } from './clickhouse-storage.js';
import { clickhouseAvailable, startClickHouse, warnIfUnavailable, type TestServer } from './test-server.js';

warnIfUnavailable('ClickHouse adapter on one server');

describe.skipIf(!clickhouseAvailable)('ClickHouse adapter, one server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startClickHouse();
  });
  afterAll(async () => {
    await server?.stop();
  });

  // Unbounded look-back (the default), and bounded to one day: the data's sessions span at most one day.
  describe.each([
    ['unbounded look-back', 'adapter_cases', undefined],
    ['maxSessionDays 1', 'adapter_cases_bounded', 1],
  ])('%s', (_name, database, maxSessionDays) => {
    let storage: ClickHouseStorage;
    beforeAll(async () => {
      storage = createClickHouseStorage({ url: server.url, database, maxSessionDays });
      await storage.migrate();
      await storage.migrate(); // idempotent
    });
    afterAll(async () => {
      await storage?.close();
    });
    adapterCases(() => storage);
  });

  it('creates exactly the documented tables', async () => {
    const storage = createClickHouseStorage({ url: server.url, database: 'adapter_cases' });
    const result = await storage.client.query({
      query: "SELECT name, engine FROM system.tables WHERE database = 'adapter_cases' ORDER BY name",
      format: 'JSONEachRow',
    });
    expect(await result.json()).toEqual([
      { name: 'accounts', engine: 'MergeTree' },
      { name: 'api_key_revocations', engine: 'MergeTree' },
      { name: 'api_key_uses', engine: 'ReplacingMergeTree' },
      { name: 'api_keys', engine: 'MergeTree' },
      { name: 'events', engine: 'MergeTree' },
      { name: 'imports', engine: 'MergeTree' },
      { name: 'salts', engine: 'MergeTree' },
      { name: 'sessions', engine: 'AggregatingMergeTree' },
      { name: 'sessions_mv', engine: 'MaterializedView' },
      { name: 'sites', engine: 'ReplacingMergeTree' },
    ]);
    await storage.close();
  });

  it('refuses bad options before touching the server', () => {
    expect(() => createClickHouseStorage({ url: server.url, database: 'x; DROP DATABASE y' })).toThrow(TypeError);
    expect(() => createClickHouseStorage({ url: server.url, cluster: 'a`b' })).toThrow(TypeError);
    expect(() => createClickHouseStorage({ url: server.url, maxSessionDays: -1 })).toThrow(TypeError);
  });
});
