import { describe, expect, it } from 'vitest';
import { importEvents } from '../../../import/import.js';
import { createSite } from '../../../sites/sites.js';
import { ALPHA, ndjson } from '../../../testing/datasets.js';
import { createChunkBuilder } from '../sqlite-chunk-builder.js';
import { createChunkReader } from '../sqlite-chunk-reader.js';
import { ATTRIBUTES, Dictionary, runSteps } from '../sqlite-columns.js';
import { createSqliteStore } from '../sqlite-storage.js';
import { computeSlices } from './compute.js';
import { funnelKey } from './kinds.js';

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
    const rows = computeSlices(chunk, dicts, { goals: [{ type: 'page', value: '/d*' }], funnels: [] })!;
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
    expect(computeSlices(chunk, dicts, { goals: [], funnels: [] }, 10)).toBeUndefined();
  });

  it("counts the visitors of a day's sessions reaching each step of a saved funnel, judged on their events of every day", async () => {
    const { chunk, dicts } = await chunkOf('2026-11-02');
    const home = [{ type: 'page', value: '/' }, { type: 'page', value: '/docs' }] as const;
    const signup = [{ type: 'page', value: '/pricing' }, { type: 'event', value: 'signup' }] as const;
    const rows = computeSlices(chunk, dicts, { goals: [], funnels: [home, signup] })!;
    const steps = (kind: string, slice: string, key: string) => rows.funnels.filter((r) => r[0] === kind && r[1] === slice && r[2] === key).map((r) => [r[3], r[4]]);
    // Starting on 11-02: S1 (v1: /, /pricing, signup), S2 (v1: /), S3 (v2: /pricing, /docs), S4 (v3: / on 11-02, /docs on 11-03).
    // / then /docs: S1 and S2 reach step 1 (v1), S4 both steps (its /docs is on 11-03); S3 has no / before its /docs.
    expect(steps('all', '', funnelKey(home))).toEqual([[1, 2], [2, 1]]);
    // /pricing then signup: S1 both (v1), S3 the first (v2).
    expect(steps('all', '', funnelKey(signup))).toEqual([[1, 2], [2, 1]]);
    // Of the sessions in the US (S4) and in the sessions viewing /docs (S3, S4): v3 at both steps of the first.
    expect(steps('countryCode', 'US', funnelKey(home))).toEqual([[1, 1], [2, 1]]);
    expect(steps('page', '/docs', funnelKey(home))).toEqual([[1, 1], [2, 1]]);
    // In GB (S1, S2, v1): the first step of the first funnel, both of the second; no session in DE (S3) reaches / .
    expect(steps('countryCode', 'GB', funnelKey(home))).toEqual([[1, 1]]);
    expect(steps('countryCode', 'GB', funnelKey(signup))).toEqual([[1, 1], [2, 1]]);
    expect(steps('countryCode', 'DE', funnelKey(home))).toEqual([]);
  });
});
