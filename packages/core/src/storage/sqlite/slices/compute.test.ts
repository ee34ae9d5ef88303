import { describe, expect, it } from 'vitest';
import { importEvents } from '../../../import/import.js';
import { createSite } from '../../../sites/sites.js';
import { ALPHA, ndjson } from '../../../testing/datasets.js';
import { createChunkBuilder } from '../sqlite-chunk-builder.js';
import { createChunkReader } from '../sqlite-chunk-reader.js';
import { ATTRIBUTES, Dictionary, runSteps } from '../sqlite-columns.js';
import { createSqliteStore } from '../sqlite-storage.js';
import { computeSlices } from './compute.js';

/** ALPHA's 11-03 (testing/datasets.ts, UTC) as a chunk: S5 and S6 start there, S4's /docs view (it started on 11-02) is there too. */
async function chunkOf(day: string) {
  const s = createSqliteStore(':memory:', { slices: false });
  await createSite(s, { id: 'ST-alpha', name: 'Alpha', timezone: 'UTC', domain: 'alpha.example' });
  await importEvents(s, ndjson(ALPHA));
  const paths = new Dictionary();
  const dicts = { paths, names: new Dictionary(), propKeys: new Dictionary(), propValues: new Dictionary(), attributes: ATTRIBUTES.map((a) => (a === 'entryPath' ? paths : new Dictionary())) };
  const builder = createChunkBuilder(day, dicts);
  runSteps(createChunkReader(s.db)('ST-alpha', day, 'UTC', builder.sink));
  const chunk = runSteps(builder.finish());
  await s.close();
  return { chunk, dicts };
}

describe('computeSlices', () => {
  it("sums a day's sessions by where they start and its pageviews by their own day", async () => {
    const { chunk, dicts } = await chunkOf('2026-11-03');
    const rows = computeSlices(chunk, dicts, [{ type: 'page', value: '/d*' }])!;
    const totals = (kind: string, slice: string, dimension = '', value = '') => rows.totals.find((r) => r[0] === kind && r[1] === slice && r[2] === dimension && r[3] === value)?.slice(4);
    // Sessions viewing /docs: S6 starts on 11-03 (10 s, its event: no bounce); S4's view of /docs is on 11-03, its session not.
    expect(totals('page', '/docs')).toEqual([1, 1, 0, 10_000, 2]);
    // ... by country: S4 is US (a view on the day, its session started the day before).
    expect(totals('page', '/docs', 'countryCode', 'US')).toEqual([0, 0, 0, 0, 1]);
    // The pattern goal /d* converts S4 and S6 the same way; its pageviews are all of theirs on the day (S4's /docs, S6's /docs).
    expect(totals('goal', '/d*')).toEqual([1, 1, 0, 10_000, 2]);
    // Country GB: S5 (v1's bounce on /pricing).
    expect(totals('countryCode', 'GB')).toEqual([1, 1, 1, 0, 1]);
    // Pages of the sessions viewing /docs, and the goal rows of every session (`all`): /d* converts S6 (visitor) and two views on the day.
    expect(rows.pages.filter((r) => r[0] === 'page' && r[1] === '/docs').map((r) => r.slice(2))).toEqual([['/docs', 2, 2, 1, 10_000]]);
    expect(rows.goals.filter((r) => r[0] === 'all')).toEqual([['all', '', 'page\u0000/d*', 1, 2]]);
    expect(rows.events.filter((r) => r[0] === 'event')).toEqual([['event', 'download', 'download', 1]]);
  });

  it('gives up a day that would make more groups than allowed (the store then reads it as before)', async () => {
    const { chunk, dicts } = await chunkOf('2026-11-03');
    expect(computeSlices(chunk, dicts, [], 10)).toBeUndefined();
  });
});
