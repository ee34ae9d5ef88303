import type { Storage } from '@siteline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chdbConnection, chdbUnavailable } from './testing/chdb-harness.js';
import { createClickHouseStorage, type ClickHouseStorage } from './clickhouse-storage.js';
import { differentialCases, differentialMismatches, loadDifferential, propertyCoverageGaps, totalPageviews } from './testing/differential-run.js';

/** The differential test of differential.test.ts against ClickHouse 26.x in-process (chdb). */
if (chdbUnavailable) console.warn(`SKIPPED differential test SQLite vs chdb: ${chdbUnavailable}`);

describe.skipIf(chdbUnavailable !== undefined)('differential: SQLite vs ClickHouse 26.x (chdb)', () => {
  let sqlite: Storage;
  let storage: ClickHouseStorage;

  beforeAll(async () => {
    storage = createClickHouseStorage({ connection: chdbConnection(), database: 'differential' });
    await storage.migrate();
    sqlite = await loadDifferential([storage]);
  });
  afterAll(async () => {
    await sqlite?.close();
    await storage?.close();
  });

  it('imported tens of thousands of events', async () => {
    expect(await totalPageviews(sqlite)).toBeGreaterThan(20_000);
  });

  it('has properties, goals and filters by them to compare (not only empty answers)', async () => {
    expect(await propertyCoverageGaps(sqlite)).toEqual([]);
  });

  it('gives identical JSON for every report, site and range', async () => {
    const mismatches = await differentialMismatches(sqlite, [{ name: 'chdb', storage }]);
    expect(mismatches.slice(0, 5).join('\n')).toBe('');
    expect(differentialCases().length).toBeGreaterThan(250);
  }, 300_000);
});
