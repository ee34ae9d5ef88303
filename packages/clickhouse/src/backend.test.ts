import { createClient } from '@clickhouse/client';
import { BackendError } from '@siteline/core';
import { testBackend } from '@siteline/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClickHouseBackend } from './backend.js';
import { sqlString } from './connection/escape.js';
import { clickhouseAvailable, startClickHouse, startClickHouseCluster, warnIfUnavailable, type TestCluster, type TestServer } from './testing/test-server.js';

warnIfUnavailable('ClickHouse backend (accounts, keys, salts)');

let server: Promise<TestServer> | undefined;
let cluster: Promise<TestCluster> | undefined;
afterAll(async () => {
  await (await server)?.stop();
  await (await cluster)?.stop();
});

/** Counts a people table's rows in a database (through the `Distributed` table on a cluster), as the conformance suite asks. */
const rowCounter = (url: () => Promise<string>, database: string) => async (table: string, column: string, value: string) => {
  const client = createClient({ url: await url() });
  try {
    const [row] = await (await client.query({ query: `SELECT count() AS n FROM ${database}.${table} WHERE ${column} = ${sqlString(value)}`, format: 'JSONEachRow' })).json<{ n: string }>();
    return Number(row!.n);
  } finally {
    await client.close();
  }
};

describe.skipIf(!clickhouseAvailable)('ClickHouse backend', () => {
  let now = Date.now();
  const clock = { set: (ms: number) => (now = ms) };
  testBackend({
    name: 'clickhouse, one server',
    open: async () => openClickHouseBackend({ url: (await (server ??= startClickHouse())).url, database: 'backend_one', now: () => now }),
    clock,
    transactions: false,
    countRows: rowCounter(async () => (await (server ??= startClickHouse())).url, 'backend_one'),
  });
  testBackend({
    name: 'clickhouse, two shards',
    open: async () => {
      const c = await (cluster ??= startClickHouseCluster(2));
      const nodes = c.servers.map((s) => s.url);
      // Each instance through another server of the cluster, as processes behind a load balancer would be.
      const url = nodes[opened++ % nodes.length]!;
      return openClickHouseBackend({ url, database: 'backend_shards', cluster: c.cluster, nodes, now: () => now });
    },
    clock,
    transactions: false,
    countRows: rowCounter(async () => (await (cluster ??= startClickHouseCluster(2))).servers[0]!.url, 'backend_shards'),
  });
  let opened = 0;

  describe('daily salts without transactions', () => {
    let url: string;
    beforeAll(async () => {
      url = (await (server ??= startClickHouse())).url;
    });

    it('takes the candidate stored first (ties by value), and keeps it once settled whatever arrives later', async () => {
      const open = () => openClickHouseBackend({ url, database: 'salt_race' });
      const [a, b] = [await open(), await open()];
      const client = createClient({ url });
      const add = (day: string, salt: string, inserted: string) =>
        client.command({ query: `INSERT INTO salt_race.salts SELECT '${day}', '${salt}', ${inserted}` });
      const aSecond = () => new Promise((r) => setTimeout(r, 1_100)); // an unsettled winner is trusted for a second
      // Days that have not expired by the real clock these instances run on.
      const [day, next] = [0, 1].map((n) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10)) as [string, string];
      // Two processes found no salt and proposed one in the same second; the larger value arrived first.
      await add(day, 'zz-arrived-first', 'now()');
      expect(await a.salts.saltFor(day)).toBe('zz-arrived-first');
      await add(day, 'aa-same-second', `(SELECT min(inserted) FROM salt_race.salts WHERE day = '${day}')`);
      await add(day, '00-a-second-later', `(SELECT min(inserted) FROM salt_race.salts WHERE day = '${day}') + 1`);
      await aSecond();
      expect(await a.salts.saltFor(day)).toBe('aa-same-second');
      expect(await b.salts.saltFor(day)).toBe('aa-same-second');
      // A day whose first candidate was stored over 10 s ago is final: nothing that appears later changes it.
      await add(next, 'settled', 'now() - 60');
      expect(await a.salts.saltFor(next)).toBe('settled');
      await add(next, '000-impossible-earlier', 'now() - 61');
      await aSecond();
      expect(await a.salts.saltFor(next)).toBe('settled');
      await Promise.all([a.close(), b.close(), client.close()]);
    });

    it("proposes the next day's salt ahead of need and drops a day's salt 48 hours after the day began", async () => {
      let t = Date.parse('2026-11-01T10:00:00Z');
      const backend = await openClickHouseBackend({ url, database: 'salt_expiry', now: () => t });
      const client = createClient({ url });
      const days = async () =>
        (await (await client.query({ query: 'SELECT DISTINCT day FROM salt_expiry.salts ORDER BY day', format: 'JSONEachRow' })).json<{ day: string }>()).map((r) => r.day);
      await backend.salts.saltFor('2026-11-01');
      await expect.poll(days).toEqual(['2026-11-01', '2026-11-02']);
      // Another process, when 11-01 began 48 h and 1 s ago: 11-01 goes, 11-02 stays (some zone is still in it until 11-03 12:00 UTC).
      t = Date.parse('2026-11-03T00:00:01Z');
      const second = await openClickHouseBackend({ url, database: 'salt_expiry', now: () => t });
      await second.salts.saltFor('2026-11-03');
      await expect.poll(days).toEqual(['2026-11-02', '2026-11-03', '2026-11-04']);
      await Promise.all([backend.close(), second.close(), client.close()]);
    });
  });

  describe('opening', () => {
    it('says what is wrong: unreachable server, refused credentials, unknown cluster (never the password)', async () => {
      const { url } = await (server ??= startClickHouse());
      const closedPort = 'http://127.0.0.1:9'; // discard port: nothing listens
      await expect(openClickHouseBackend({ url: closedPort, database: 'x' })).rejects.toThrow(
        new BackendError(`Cannot reach ClickHouse at ${closedPort}: connect ECONNREFUSED 127.0.0.1:9. Check the host and port of DATABASE_URL and that the server runs.`),
      );
      const wrong = openClickHouseBackend({ url, username: 'default', password: 'hunter2-not-it', database: 'x' });
      await expect(wrong).rejects.toThrow(new BackendError(`ClickHouse at ${url} refused the credentials of user "default": check the user name and password in DATABASE_URL.`));
      await expect(openClickHouseBackend({ url, username: 'mallory', database: 'x' })).rejects.toThrow(/refused the credentials of user "mallory"/);
      await expect(openClickHouseBackend({ url, database: 'x', cluster: 'nowhere' })).rejects.toThrow(
        new BackendError(`CLICKHOUSE_CLUSTER=nowhere is not a cluster of ClickHouse at ${url} (its remote_servers define: none).`),
      );
      await wrong.catch((error: Error) => expect(error.message).not.toContain('hunter2'));
    });

    it('creates its schema once, idempotently, and declares what it can do', async () => {
      const { url } = await (server ??= startClickHouse());
      const first = await openClickHouseBackend({ url, database: 'opened_twice' });
      const second = await openClickHouseBackend({ url, database: 'opened_twice' });
      expect([second.kind, second.description, second.capabilities]).toEqual([
        'clickhouse', `clickhouse ${url.replace('http://', '')}/opened_twice`, { writerThread: true, sharedAcrossHosts: true },
      ]);
      const client = createClient({ url });
      const tables = (await (await client.query({ query: "SELECT name FROM system.tables WHERE database = 'opened_twice' ORDER BY name", format: 'JSONEachRow' })).json<{ name: string }>()).map((r) => r.name);
      expect(tables).toEqual(expect.arrayContaining(['accounts', 'api_key_revocations', 'api_key_uses', 'api_keys', 'events', 'salts', 'sites']));
      await Promise.all([first.close(), second.close(), client.close()]);
    });
  });
});
