/**
 * The sharing cases (shared links and their sessions, email report subscriptions, claims,
 * retries and unsubscribe tokens) on ClickHouse 26.x in this process (chdb), two store
 * instances on one database as two server processes would use them.
 */
import type { Backend } from '@siteline/core';
import { sharingCases } from '@siteline/core/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import { chdbConnection, chdbUnavailable } from '../testing/chdb-harness.js';
import { createClickHouseStorage } from '../clickhouse-storage.js';
import { createClickHousePeople } from '../people/people.js';
import { createClickHouseEmailReportStore } from './email-reports.js';
import { createClickHouseShareStore } from './shared-links.js';

if (chdbUnavailable) console.warn(`SKIPPED sharing on chdb: ${chdbUnavailable}`);

describe.skipIf(chdbUnavailable !== undefined)('sharing and email reports on ClickHouse 26.x (chdb)', () => {
  const target = { database: 'sharing_chdb' };
  const storage = chdbUnavailable ? undefined : createClickHouseStorage({ connection: chdbConnection(), database: target.database });
  beforeAll(() => storage!.migrate());
  afterAll(() => storage!.close());
  const instance = (): Backend => ({
    people: createClickHousePeople(storage!.client, target, {}, (run) => run(storage!.client, '').then(() => undefined)),
    shares: createClickHouseShareStore(storage!.client, target, {}),
    emailReports: createClickHouseEmailReportStore(storage!.client, target, {}),
  }) as unknown as Backend;
  const [a, b] = [instance(), instance()];
  describe('sharing', () => sharingCases(() => [a, b], { transactions: false }));
});
