import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { PAYLOADS } from '../testing/escape-payloads.js';
import { goalPatternMatches } from '@siteline/core';
import { likePattern, sqlDate, sqlIdent, sqlInt, sqlString, tsvInt, tsvStrings, tsvText } from './escape.js';
import { clickhouseAvailable, startClickHouse, warnIfUnavailable, type TestServer } from '../testing/test-server.js';


describe('escape (pure)', () => {
  it('quotes, escapes and refuses what cannot be a literal', () => {
    expect(sqlString("it's")).toBe("'it\\'s'");
    expect(sqlString('a\\b')).toBe("'a\\\\b'");
    expect(sqlString('\0\n')).toBe("'\\x00\\x0a'");
    expect(() => sqlString('\ud800')).toThrow(RangeError);
    expect(() => sqlString(42 as unknown as string)).toThrow(TypeError);
    expect(sqlInt(-12)).toBe('-12');
    for (const bad of [1.5, Number.NaN, Infinity, 2 ** 53, '1; DROP' as unknown as number]) expect(() => sqlInt(bad)).toThrow(TypeError);
    expect(sqlDate('2026-11-02')).toBe("toDate('2026-11-02')");
    for (const bad of ['2026-13-01', "2026-01-01'", '2026-1-1']) expect(() => sqlDate(bad)).toThrow(TypeError);
    expect(tsvText('a\tb\nc\\d\re\0f')).toBe('a\\tb\\nc\\\\d\\re\\0f');
    expect(tsvText('plain é')).toBe('plain é');
    expect(() => tsvText(1 as unknown as string)).toThrow(TypeError);
    expect(tsvInt(-1)).toBe('-1');
    for (const bad of [1.5, Number.NaN, '1' as unknown as number]) expect(() => tsvInt(bad)).toThrow(TypeError);
    expect(tsvStrings([])).toBe('[]');
    expect(tsvStrings(['plan', "it's", 'a\\b', 'x\ty\nz\r\0'])).toBe("['plan','it\\'s','a\\\\b','x\\ty\\nz\\r\\0']");
    expect(() => tsvStrings([1 as unknown as string])).toThrow(TypeError);
    expect(likePattern('/blog/*')).toBe('/blog/%');
    expect(likePattern('/50%_off\\*')).toBe('/50\\%\\_off\\\\%');
    expect(sqlIdent('siteline_1')).toBe('`siteline_1`');
    for (const bad of ['a b', 'a`b', '1a', '', 'a.b', 'x'.repeat(65)]) expect(() => sqlIdent(bad)).toThrow(TypeError);
  });
});

warnIfUnavailable('escape round trip through clickhouse-server');

describe.skipIf(!clickhouseAvailable)('escape round trip through a real server', () => {
  let server: TestServer;
  let client: ClickHouseClient;
  const rows = async <T>(query: string) => (await client.query({ query, format: 'JSONEachRow' })).json<T>();

  beforeAll(async () => {
    server = await startClickHouse();
    client = createClient({ url: server.url });
    await client.command({ query: 'CREATE TABLE default.payloads (i UInt32, s String) ENGINE = MergeTree() ORDER BY i' });
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('reads every payload back unchanged from a SELECT literal', async () => {
    for (const payload of PAYLOADS) {
      const [row] = await rows<{ s: string; n: string }>(`SELECT ${sqlString(payload)} AS s, length(s) AS n`);
      expect(row?.s).toBe(payload);
      expect(Number(row?.n)).toBe(Buffer.byteLength(payload));
    }
  });

  it('stores payloads with INSERT ... VALUES and finds each with WHERE', async () => {
    const values = PAYLOADS.map((p, i) => `(${sqlInt(i)}, ${sqlString(p)})`).join(', ');
    await client.command({ query: `INSERT INTO default.payloads (i, s) VALUES ${values}` });
    const stored = await rows<{ i: number; s: string }>('SELECT i, s FROM default.payloads ORDER BY i');
    expect(stored.map((r) => r.s)).toEqual(PAYLOADS);
    for (const [i, payload] of PAYLOADS.entries()) {
      const found = await rows<{ i: number }>(`SELECT i FROM default.payloads WHERE s = ${sqlString(payload)}`);
      expect(found.map((r) => Number(r.i))).toEqual([i]);
    }
    const [left] = await rows<{ n: string }>("SELECT count() AS n FROM system.tables WHERE database = 'default' AND name = 'payloads'");
    expect(left?.n).toBe('1');
  });

  it('round-trips payloads sent as JSONEachRow, the path of event inserts', async () => {
    await client.command({ query: 'CREATE TABLE default.json_payloads (i UInt32, s String) ENGINE = MergeTree() ORDER BY i' });
    await client.insert({ table: 'default.json_payloads', values: PAYLOADS.map((s, i) => ({ i, s })), format: 'JSONEachRow' });
    const stored = await rows<{ s: string }>('SELECT s FROM default.json_payloads ORDER BY i');
    expect(stored.map((r) => r.s)).toEqual(PAYLOADS);
  });

  it('round-trips payloads as Array(String) TabSeparated fields, the path of event properties', async () => {
    await client.command({ query: 'CREATE TABLE default.tsv_arrays (i UInt32, a Array(String)) ENGINE = MergeTree() ORDER BY i' });
    const lists = [PAYLOADS, [], [''], PAYLOADS.slice().reverse()];
    const body = lists.map((list, i) => `${tsvInt(i)}\t${tsvStrings(list)}\n`).join('');
    await client.insert({ table: 'default.tsv_arrays', values: Readable.from([body], { objectMode: false }), format: 'TabSeparated' });
    const stored = await rows<{ a: string[] }>('SELECT a FROM default.tsv_arrays ORDER BY i');
    expect(stored.map((r) => r.a)).toEqual(lists);
  });

  it('a page goal\'s LIKE pattern matches exactly what goalPatternMatches does, payloads and wildcards included', async () => {
    const patterns = ['*', '/blog/*', '/a*b*c', '/50%off', '/d_cs', '*\\*', "*'*", '*\n*', '/x*', ...PAYLOADS.slice(0, 24)];
    const paths = ['/', '', '/blog', '/blog/', '/blog/a/b', '/abc', '/a-c-b-c', '/a-c-b', '/50%off', '/50Xoff', '/d_cs', '/docs', '/x\\y', "/it's", 'a\nb', ...PAYLOADS.slice(0, 24)];
    for (const pattern of patterns) {
      const found = await rows<{ m: number | string }>(`SELECT ${paths.map((p, i) => `${sqlString(p)} LIKE ${sqlString(likePattern(pattern))} AS m${i}`).join(', ')}`);
      const got = paths.map((_, i) => Number((found[0] as Record<string, number | string>)[`m${i}`]) === 1);
      expect([pattern, got]).toEqual([pattern, paths.map((p) => goalPatternMatches(pattern, p))]);
    }
  });

  it('round-trips payloads sent as TabSeparated fields, the path of bulk inserts', async () => {
    await client.command({ query: 'CREATE TABLE default.tsv_payloads (i UInt32, s String) ENGINE = MergeTree() ORDER BY i' });
    const body = PAYLOADS.map((p, i) => `${tsvInt(i)}\t${tsvText(p)}\n`).join('');
    await client.insert({ table: 'default.tsv_payloads', values: Readable.from([body], { objectMode: false }), format: 'TabSeparated' });
    const stored = await rows<{ s: string }>('SELECT s FROM default.tsv_payloads ORDER BY i');
    expect(stored.map((r) => r.s)).toEqual(PAYLOADS);
  });
});
