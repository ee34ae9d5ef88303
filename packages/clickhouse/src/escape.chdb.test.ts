import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chdbUnavailable, chdbConnection } from './chdb-harness.js';
import { createClickHouseStorage, type ClickHouseStorage } from './clickhouse-storage.js';
import { PAYLOADS } from './escape-payloads.js';
import { tsvInt, tsvText } from './escape.js';

if (chdbUnavailable) console.warn(`SKIPPED escape round trip through chdb: ${chdbUnavailable}`);

describe.skipIf(chdbUnavailable !== undefined)('escape round trip through ClickHouse 26.x (chdb)', () => {
  let storage: ClickHouseStorage;
  const rows = async <T>(query: string) => (await storage.client.query({ query, format: 'JSONEachRow' })).json<T>();
  beforeAll(async () => {
    storage = createClickHouseStorage({ connection: chdbConnection(), database: 'payloads' });
    await storage.client.command({ query: 'CREATE DATABASE payloads' });
  });
  afterAll(async () => {
    await storage?.close();
  });

  it('reads every payload back unchanged from a SELECT literal', async () => {
    const { sqlString } = await import('./escape.js');
    for (const payload of PAYLOADS) {
      const [row] = await rows<{ s: string }>(`SELECT ${sqlString(payload)} AS s`);
      expect(row?.s).toBe(payload);
    }
  });

  it('round-trips payloads sent as TabSeparated fields through chdb\'s raw insert, the path of bulk inserts', async () => {
    await storage.client.command({ query: 'CREATE TABLE payloads.tsv (i UInt32, s String) ENGINE = MergeTree() ORDER BY i' });
    const connection = chdbConnection() as unknown as { chdb: { rawInsert(p: object): Promise<unknown> } };
    const body = PAYLOADS.map((p, i) => `${tsvInt(i)}\t${tsvText(p)}\n`).join('');
    await connection.chdb.rawInsert({ table: 'payloads.tsv', values: Buffer.from(body), format: 'TabSeparated' });
    const stored = await rows<{ s: string }>('SELECT s FROM payloads.tsv ORDER BY i');
    expect(stored.map((r) => r.s)).toEqual(PAYLOADS);
  });
});
