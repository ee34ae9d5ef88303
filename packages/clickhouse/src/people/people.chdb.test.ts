/**
 * The people cases (users, links, sessions, two-factor steps, the throttle's attempts and
 * the removal of expired rows by `ALTER TABLE … DELETE`) on ClickHouse 26.x in this process
 * (chdb), two store instances on one database as two server processes would use it.
 */
import type { Backend } from '@siteline/core';
import { peopleCases } from '@siteline/core/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import { chdbConnection, chdbUnavailable } from '../testing/chdb-harness.js';
import { createClickHouseStorage } from '../clickhouse-storage.js';
import { createClickHousePeople } from './people.js';
import { sqlString } from '../connection/escape.js';

if (chdbUnavailable) console.warn(`SKIPPED people on chdb: ${chdbUnavailable}`);

describe.skipIf(chdbUnavailable !== undefined)('people on ClickHouse 26.x (chdb)', () => {
  const target = { database: 'people_chdb' };
  const storage = chdbUnavailable ? undefined : createClickHouseStorage({ connection: chdbConnection(), database: target.database });
  beforeAll(() => storage!.migrate());
  afterAll(() => storage!.close());
  const instance = () => ({ people: createClickHousePeople(storage!.client, target, {}, (run) => run(storage!.client, '').then(() => undefined)) }) as unknown as Backend;
  const [a, b] = [instance(), instance()];
  describe('people', () => {
    peopleCases(() => [a, b], {
      transactions: false,
      async countRows(table, column, value) {
        const [row] = await (await storage!.client.query({ query: `SELECT count() AS n FROM ${target.database}.${table} WHERE ${column} = ${sqlString(value)}`, format: 'JSONEachRow' })).json<{ n: string }>();
        return Number(row!.n);
      },
    });
  });
});
