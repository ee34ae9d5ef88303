import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { conditionHolds, type Condition } from '@siteline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYLOADS } from '../testing/escape-payloads.js';
import { sqlString } from '../connection/escape.js';
import { conditionSql } from './conditions.js';
import { clickhouseAvailable, startClickHouse, warnIfUnavailable, type TestServer } from '../testing/test-server.js';

describe('conditionSql (pure)', () => {
  it('writes each operator as IN, NOT IN or position(), every value through sqlString', () => {
    expect(conditionSql('path', { operator: 'is', values: ['/a', "it's"] })).toBe("path IN ('/a', 'it\\'s')");
    expect(conditionSql('path', { operator: 'is_not', values: ['/'] })).toBe("path NOT IN ('/')");
    expect(conditionSql('path', { operator: 'contains', values: ['/blog', ''] })).toBe("(position(path, '/blog') > 0 OR 1)");
    expect(conditionSql('path', { operator: 'contains_not', values: ['%_'] })).toBe("NOT (position(path, '%_') > 0)");
  });
});

warnIfUnavailable('conditionSql against clickhouse-server');

/** Stored values and condition values: the escape payloads plus strings that overlap, prefix and contain each other. */
const STORED = [...PAYLOADS.filter((p) => p.length < 100), '/blog/a', '/blog', 'blog', '/BLOG/a', '%', '_', 'a%b', 'x'];
const WANTED = [...PAYLOADS.filter((p) => p.length < 100), '/blog', 'blog/', 'BLOG', '%', '_', 'a', '\\'];

describe.skipIf(!clickhouseAvailable)('conditionSql on a real server', () => {
  let server: TestServer;
  let client: ClickHouseClient;

  beforeAll(async () => {
    server = await startClickHouse();
    client = createClient({ url: server.url });
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('selects exactly what the core\'s conditionHolds selects, for every operator, stored value and condition value', async () => {
    const conditions: Condition[] = [];
    for (const operator of ['is', 'is_not', 'contains', 'contains_not'] as const) {
      for (const value of WANTED) conditions.push({ operator, values: [value] });
      conditions.push({ operator, values: ['/blog', '%', "'"] });
    }
    // One query per condition: which stored values (by index) satisfy it.
    const rows = STORED.map((value, i) => `SELECT ${i} AS i, ${sqlString(value)} AS v`).join(' UNION ALL ');
    let checked = 0;
    for (const condition of conditions) {
      const result = await client.query({ query: `SELECT i FROM (${rows}) WHERE ${conditionSql('v', condition)} ORDER BY i`, format: 'JSONEachRow' });
      const got = (await result.json<{ i: number }>()).map((r) => Number(r.i));
      const expected = STORED.flatMap((value, i) => (conditionHolds(condition, value) ? [i] : []));
      expect(got, JSON.stringify(condition)).toEqual(expected);
      checked += STORED.length;
    }
    expect(checked).toBe(conditions.length * STORED.length);
  });
});
