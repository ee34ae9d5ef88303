import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chdbUnavailable, chdbConnection } from '../testing/chdb-harness.js';
import { createClickHouseStorage, type ClickHouseStorage } from '../clickhouse-storage.js';
import { PAYLOADS } from '../testing/escape-payloads.js';
import { goalPatternMatches } from '@siteline/core';
import { likePattern, sqlString, tsvInt, tsvStrings, tsvText } from './escape.js';

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
    for (const payload of PAYLOADS) {
      const [row] = await rows<{ s: string }>(`SELECT ${sqlString(payload)} AS s`);
      expect(row?.s).toBe(payload);
    }
  });

  it('round-trips payloads as Array(String) fields through chdb\'s raw insert, the path of event properties', async () => {
    await storage.client.command({ query: 'CREATE TABLE payloads.arrays (i UInt32, a Array(String)) ENGINE = MergeTree() ORDER BY i' });
    const connection = chdbConnection() as unknown as { chdb: { rawInsert(p: object): Promise<unknown> } };
    const lists = [PAYLOADS, [], [''], PAYLOADS.slice().reverse()];
    const body = lists.map((list, i) => `${tsvInt(i)}\t${tsvStrings(list)}\n`).join('');
    await connection.chdb.rawInsert({ table: 'payloads.arrays', values: Buffer.from(body), format: 'TabSeparated' });
    const stored = await rows<{ a: string[] }>('SELECT a FROM payloads.arrays ORDER BY i');
    expect(stored.map((r) => r.a)).toEqual(lists);
  });

  it('a page goal\'s LIKE pattern matches exactly what goalPatternMatches does', async () => {
    const patterns = ['*', '/blog/*', '/a*b*c', '/50%off', '/d_cs', '*\\*', "*'*", '*\n*', ...PAYLOADS.slice(0, 24)];
    const paths = ['/', '', '/blog', '/blog/', '/blog/a/b', '/abc', '/a-c-b-c', '/a-c-b', '/50%off', '/50Xoff', '/d_cs', '/docs', "/it's", 'a\nb', ...PAYLOADS.slice(0, 24)];
    for (const pattern of patterns) {
      const [found] = await rows<Record<string, number | string>>(`SELECT ${paths.map((p, i) => `${sqlString(p)} LIKE ${sqlString(likePattern(pattern))} AS m${i}`).join(', ')}`);
      expect([pattern, paths.map((_, i) => Number(found![`m${i}`]) === 1)]).toEqual([pattern, paths.map((p) => goalPatternMatches(pattern, p))]);
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
