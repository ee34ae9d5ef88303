import { afterEach, describe, expect, it } from 'vitest';
import { importEvents } from '../../import/import.js';
import { createSite } from '../../sites/sites.js';
import { ALPHA, ndjson } from '../../testing/datasets.js';
import { createChunkBuilder } from './sqlite-chunk-builder.js';
import { collectRows, createChunkReader } from './sqlite-chunk-reader.js';
import { ATTRIBUTES, Dictionary, runSteps, type SiteDictionaries } from './sqlite-columns.js';
import { createSqliteStore } from './sqlite-storage.js';

const open: ReturnType<typeof createSqliteStore>[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

const dictionaries = (): SiteDictionaries => {
  const paths = new Dictionary();
  return { paths, names: new Dictionary(), propKeys: new Dictionary(), propValues: new Dictionary(), attributes: ATTRIBUTES.map((a) => (a === 'entryPath' ? paths : new Dictionary())) };
};

async function alpha() {
  const s = createSqliteStore(':memory:');
  open.push(s);
  await createSite(s, { id: 'ST-alpha', name: 'Alpha', timezone: 'UTC', domain: 'alpha.example' });
  await importEvents(s, ndjson(ALPHA));
  return s;
}

describe('createChunkBuilder', () => {
  /**
   * ALPHA's 11-02 (UTC; testing/datasets.ts): own sessions S1, S2 (v1), S3 (v2), S4 (v3) in visitor order; S2 is
   * the one bounce; 7 events of the day, grouped by visitor: v1's four (S1's three, S2's one), v2's two, v3's one;
   * S4's 00:10 view of /docs on 11-03 is its one event outside the day.
   */
  it('codes the rows as they come and lays the day out as a chunk', async () => {
    const s = await alpha();
    const dicts = dictionaries();
    const builder = createChunkBuilder('2026-11-02', dicts);
    runSteps(createChunkReader(s.db, { maxRows: 2 })('ST-alpha', '2026-11-02', 'UTC', builder.sink));
    const chunk = runSteps(builder.finish());
    expect([chunk.own, chunk.sessions, [...chunk.visitor], [...chunk.bounce], [...chunk.durationMs]]).toEqual([4, 4, [0, 0, 1, 2], [0, 1, 0, 0], [180_000, 0, 30_000, 1_200_000]]);
    const path = (code: number) => dicts.paths.values[code];
    expect([...chunk.evSession]).toEqual([0, 0, 0, 1, 2, 2, 3]);
    expect([...chunk.evPageview]).toEqual([1, 1, 0, 1, 1, 1, 1]);
    expect([...chunk.evCode].map((code, e) => (chunk.evPageview[e] ? path(code) : dicts.names.values[code]))).toEqual(['/', '/pricing', 'signup', '/', '/pricing', '/docs', '/']);
    expect([[...chunk.exSession], [...chunk.exCode].map(path), chunk.dependsOn]).toEqual([[3], ['/docs'], []]);
    expect([...chunk.attributes[ATTRIBUTES.indexOf('countryCode')]!].map((c) => dicts.attributes[ATTRIBUTES.indexOf('countryCode')]!.values[c])).toEqual(['GB', 'GB', 'DE', 'US']);
    // 11-03: S4 is a foreign session there (started 11-02), so the chunk depends on 11-02.
    const next = createChunkBuilder('2026-11-03', dicts);
    runSteps(createChunkReader(s.db)('ST-alpha', '2026-11-03', 'UTC', next.sink));
    expect([next.foreignDays(), runSteps(next.finish()).dependsOn]).toEqual([['2026-11-02'], ['2026-11-02']]);
  });

  it('puts each visitor\'s events in record order, (ts, seq), whatever order they arrived in, and marks the ones sharing ts and seq', async () => {
    const s = createSqliteStore(':memory:');
    open.push(s);
    await createSite(s, { id: 'ST-alpha', name: 'Alpha', timezone: 'UTC', domain: 'alpha.example' });
    const at = Date.parse('2026-11-02T10:00:00Z');
    const event = (path: string, ts: number, seq: number) => ({
      siteId: 'ST-alpha', ts, day: '2026-11-02', type: 'pageview' as const, name: '', path, visitorId: 'v', sessionId: 's', seq, entryPath: '/x',
      referrerSource: 'Direct / None', channel: 'Direct', utmSource: '', utmMedium: '', utmCampaign: '', countryCode: 'DE', deviceType: 'Desktop', browser: 'Firefox', os: 'Linux',
    });
    // Written: /c (10:00, seq 30), then /b (10:00, seq 20) and /d (10:00, seq 30), then /x (09:59, seq 1), then 11-03's /f (seq 50) and /e (seq 40) at one time.
    await s.writeEvents([event('/c', at, 30)]);
    await s.writeEvents([event('/b', at, 20), event('/d', at, 30)]);
    await s.writeEvents([event('/x', at - 60_000, 1)]);
    await s.writeEvents([event('/f', at + 86_400_000, 50), event('/e', at + 86_400_000, 40)]);
    const dicts = dictionaries();
    const builder = createChunkBuilder('2026-11-02', dicts);
    runSteps(createChunkReader(s.db)('ST-alpha', '2026-11-02', 'UTC', builder.sink));
    const chunk = runSteps(builder.finish());
    const path = (code: number) => dicts.paths.values[code];
    expect([...chunk.evCode].map(path)).toEqual(['/x', '/b', '/c', '/d']);
    expect([...chunk.evTies]).toEqual([3]); // /d shares 10:00 and seq 30 with /c
    expect([[...chunk.exCode].map(path), [...chunk.exTies]]).toEqual([['/e', '/f'], []]);
  });

  it('adds nothing to the site dictionaries when the read is given up half-way', async () => {
    const s = await alpha();
    const { sink, rows } = collectRows('2026-11-02');
    const text = runSteps(createChunkReader(s.db)('ST-alpha', '2026-11-02', 'UTC', sink))!;
    const dicts = dictionaries();
    const builder = createChunkBuilder('2026-11-02', dicts);
    // The sessions' query is read and coded, the events' passes the limit.
    const sessionsText = JSON.stringify(rows.own).length;
    expect(sessionsText).toBeLessThan(text);
    expect(runSteps(createChunkReader(s.db)('ST-alpha', '2026-11-02', 'UTC', builder.sink, sessionsText + 1))).toBeUndefined();
    expect([dicts.paths.values, dicts.attributes.map((d) => d.values.length), dicts.paths.bytes]).toEqual([[], ATTRIBUTES.map(() => 0), 0]);
  });
});
