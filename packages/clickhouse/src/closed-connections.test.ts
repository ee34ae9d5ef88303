import { createSite, getStats, importEvents, parseQuery } from '@siteline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouseStorage, type ClickHouseStorage } from './clickhouse-storage.js';
import { startClosingProxy, type ClosingProxy } from './testing/closing-proxy.js';
import { clickhouseAvailable, startClickHouse, warnIfUnavailable, type TestServer } from './testing/test-server.js';

warnIfUnavailable('ClickHouse connections closed by the server');

const IDLE_MS = 150;
const idle = () => new Promise((resolve) => setTimeout(resolve, 2 * IDLE_MS));
const line = (ts: string, visitor: string, path: string, type = 'pageview') =>
  JSON.stringify({ site_id: 'ST-closed', ts, type, ...(type === 'event' ? { name: 'Signup' } : {}), url: `https://closed.example${path}`, visitor_id: visitor });

// The server closes a kept-alive connection just as the next request arrives (closing-proxy.ts): the race that
// ended a 10M import into clickhouse-server 18.16 with `socket hang up` after 500,000 events.
describe.skipIf(!clickhouseAvailable)('a connection the server closes as a request arrives', () => {
  let server: TestServer;
  let proxy: ClosingProxy;
  let storage: ClickHouseStorage;
  beforeAll(async () => {
    server = await startClickHouse();
    proxy = await startClosingProxy(server.httpPort, IDLE_MS);
    storage = createClickHouseStorage({ url: proxy.url, database: 'closed_connections', now: () => Date.parse('2030-01-01T00:00:00Z') });
    await storage.migrate();
  });
  afterAll(async () => {
    await storage?.close();
    await proxy?.stop();
    await server?.stop();
  });

  it('imports batch after batch with pauses between, each row stored once, and reads after a pause', async () => {
    await createSite(storage, { id: 'ST-closed', name: 'Closed', timezone: 'UTC', domain: 'closed.example' });
    await idle();
    // Visitor a: two pageviews 10 minutes apart (one session); visitor b: a pageview and a custom event.
    await importEvents(storage, [line('2026-11-01T10:00:00Z', 'a', '/'), line('2026-11-01T10:10:00Z', 'a', '/pricing')]);
    await idle();
    await importEvents(storage, [line('2026-11-01T11:00:00Z', 'b', '/'), line('2026-11-01T11:01:00Z', 'b', '/', 'event')]);
    await idle();
    await importEvents(storage, [line('2026-11-01T12:00:00Z', 'c', '/docs')]);
    await idle();
    const stats = await getStats(storage, parseQuery('stats', { site_id: 'ST-closed', from: '2026-11-01', to: '2026-11-01' }));
    expect(stats).toMatchObject({ visitors: 3, sessions: 3, pageviews: 4 });
    await idle();
    const [counts] = await (await storage.client.query({
      query: "SELECT count() AS events, countIf(type = 'event') AS custom FROM closed_connections.events",
      format: 'JSONEachRow',
    })).json<{ events: string; custom: string }>();
    expect(counts).toEqual({ events: '5', custom: '1' });
    // The proxy did close connections as requests arrived: the pauses above were long enough for reuse.
    expect(proxy.closed).toBeGreaterThan(0);
  });

  it('a read after a pause answers when reads side by side left several kept-alive connections, all closed since', async () => {
    const read = (i: number) => storage.client.query({ query: `SELECT ${i} AS n`, format: 'JSONEachRow' }).then((r) => r.json<{ n: number }>());
    // Six at once leave six connections in the pool.
    expect((await Promise.all([0, 1, 2, 3, 4, 5].map(read))).map(([row]) => row!.n)).toEqual([0, 1, 2, 3, 4, 5]);
    await idle();
    const before = proxy.closed;
    // The first read after the pause meets a closed connection and goes again on one of its own: one closed, not six.
    expect(await read(7)).toEqual([{ n: 7 }]);
    expect(proxy.closed - before).toBe(1);
  });

  it('never sends a write twice when its answer is lost (it may have been stored); sends a read at most twice, the second time on a connection of its own', async () => {
    await storage.client.command({ query: 'CREATE TABLE closed_connections.probe (n UInt32) ENGINE = MergeTree ORDER BY n' });
    const before = proxy.closed;
    proxy.loseAnswers = true;
    try {
      await expect(storage.client.insert({ table: 'closed_connections.probe', values: [{ n: 1 }], format: 'JSONEachRow' })).rejects.toMatchObject({ code: 'ECONNRESET' });
      expect(proxy.closed - before).toBe(1);
      await expect(storage.client.query({ query: 'SELECT 1', format: 'JSONEachRow' })).rejects.toMatchObject({ code: 'ECONNRESET' });
      expect(proxy.closed - before).toBe(1 + 2);
    } finally {
      proxy.loseAnswers = false;
    }
    // The server ran the insert whose answer was lost: one row, not two.
    const [row] = await (await storage.client.query({ query: 'SELECT count() AS n FROM closed_connections.probe', format: 'JSONEachRow' })).json<{ n: string }>();
    expect(row).toEqual({ n: '1' });
  });
});
