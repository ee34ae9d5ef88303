import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DEMO_GOALS, demoNdjson } from '../../demo/index.js';
import { addGoal } from '../../goals/goals.js';
import { importEvents } from '../../import/import.js';
import { parseQuery } from '../../query/parse.js';
import { REPORTS } from '../../reports/index.js';
import { testStorageExtensions } from '../../testing/conformance-extensions.js';
import { LATE_WRITES } from '../../testing/datasets-funnels.js';
import { stepGoal } from '../../funnels/funnel.js';
import { addFunnel } from '../../funnels/funnels.js';
import { ALPHA, ndjson } from '../../testing/datasets.js';
import { createSite } from '../../sites/sites.js';
import { shiftDay } from '../../time/zone.js';
import type { EndpointName, FilterCondition, FunnelStep } from '../../types.js';
import type { Storage, StoredEvent } from '../types.js';
import type { ColumnCacheStats } from './sqlite-column-cache.js';
import { createRawSelectionReads, type RawPlan } from './sqlite-selection-raw.js';
import { createSqliteStore } from './sqlite-storage.js';

type Sqlite = ReturnType<typeof createSqliteStore>;

const dir = mkdtempSync(join(tmpdir(), 'siteline-column-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = Date.parse('2026-11-05T15:00:00Z');
const SITES = [
  { id: 'ST-berlin', name: 'Berlin', timezone: 'Europe/Berlin', domain: 'berlin.example' },
  { id: 'ST-delhi', name: 'Delhi', timezone: 'Asia/Kolkata', domain: 'delhi.example' },
];

/**
 * The same store answering filtered reads and hour buckets from the raw tables: by the definition (what the column
 * cache must reproduce), or by the sets plan the store reads its uncached days with.
 */
function rawOnly(store: Sqlite, plan: RawPlan = 'definition'): Storage {
  const timezoneOf = (id: string) => (store.db.prepare('SELECT timezone FROM sites WHERE id = ?').pluck().get(id) as string | undefined) ?? 'UTC';
  const raw = createRawSelectionReads(store.db, { plan, timezoneOf });
  return {
    ...store,
    summary: async (r, s) => (s ? raw.summary(r, s) : store.summary(r)),
    timeseries: async (r, s) => (s ? raw.timeseries(r, s) : store.timeseries(r)),
    sessionBreakdown: async (r, d, s) => (s ? raw.sessionBreakdown(r, d, s) : store.sessionBreakdown(r, d)),
    pages: async (r, s) => (s ? raw.pages(r, s) : store.pages(r)),
    customEvents: async (r, name, s) => (s ? raw.customEvents(r, name, s) : store.customEvents(r, name)),
    hourBuckets: async (r, starts, s) => raw.hourBuckets(r, starts, s),
    properties: async (r, name, property, s) => raw.properties(r, name, property, s),
    goalTotals: async (r, goals, s) => raw.goalTotals(r, goals, s),
    funnelVisitors: async (r, steps, s) => raw.funnelVisitors(r, steps, s),
  };
}

/** Filters of every kind: one session dimension, a page, an event, combinations, negations and a condition nothing satisfies. */
const FILTERS: FilterCondition[][] = [
  [], // unfiltered: /properties and /goals read the column cache even so
  [['is', 'country', ['DE', 'AT']]],
  [['is_not', 'device_type', ['Desktop']]],
  [['contains', 'source', ['google', 'bing']]],
  [['is', 'utm_campaign', ['']]],
  [['is', 'channel', ['Organic Search']], ['is_not', 'browser', ['Chrome']]],
  [['is', 'page', ['/pricing']]],
  [['is_not', 'page', ['/']]],
  [['contains', 'page', ['/blog/']], ['contains_not', 'page', ['sqlite']]],
  [['contains', 'entry_page', ['/docs']]],
  [['is', 'event', ['signup', 'download']]],
  [['is_not', 'event', ['outbound']]],
  [['is', 'country', ['US']], ['contains', 'page', ['/docs']], ['is', 'event', ['download']]],
  [['is', 'os', ['nothing-has-this']]],
  [['is', 'prop:button', ['Start free trial', 'See a demo']]],
  [['is_not', 'prop:button', ['Talk to sales']], ['is', 'event', ['cta_click']]],
  [['is', 'prop:url', ['']], ['contains', 'prop:version', ['2.4']]],
  [['is', 'goal', ['Visit /pricing']], ['is_not', 'goal', ['Visit /docs/*']]],
  [['contains', 'goal', ['Visit']], ['is', 'country', ['US', 'DE']]],
  // One condition, one value: read from slices (slices/) on the days they hold.
  [['is', 'country', ['DE']]],
  [['is', 'page', ['/pricing']]],
  [['is', 'event', ['download']]],
  [['is', 'goal', ['signup']]],
  [['is', 'goal', ['Visit /docs/*']]],
  [['is', 'goal', ['Visit /pricing']]],
  [['is', 'entry_page', ['/']]],
  [['is', 'utm_source', ['newsletter']]],
  // Two conditions whose totals are a slice's rows by a dimension's value (a pair), the rest read as before.
  [['is', 'country', ['DE']], ['is', 'page', ['/pricing']]],
  [['is', 'channel', ['Organic Search']], ['is', 'event', ['download']]],
  [['is', 'device_type', ['Mobile']], ['is', 'goal', ['Visit /docs/*']]],
  [['is', 'browser', ['Chrome']], ['is', 'os', ['Windows']]],
];

/** The funnels asked: the first two saved for each site (slices hold them), the last not (the column cache answers it). */
const FUNNELS = [
  [{ page: '/pricing' }, { page: '/signup' }, { event: 'signup' }],
  [{ page: '/docs*' }, { page: '/download' }, { event: 'download' }],
  [{ page: '/' }, { page: '/blog*' }, { page: '/' }],
];

/** Every endpoint over a few ranges, filtered, compared and bucketed, as JSON lines. */
async function answers(storage: Storage, siteId: string): Promise<string[]> {
  const out: string[] = [];
  const variants: [EndpointName, Record<string, string>][] = [
    ['stats', {}], ['timeseries', {}], ['timeseries', { interval: 'week' }], ['pages', { limit: '100' }], ['referrers', {}], ['channels', {}],
    ['locations', {}], ['devices', { breakdown: 'browser' }], ['events', {}], ['events', { name: 'download' }], ['campaigns', {}],
    ['properties', { name: 'outbound' }], ['properties', { name: 'cta_click', property: 'button' }], ['goals', {}],
    ...FUNNELS.map((steps): [EndpointName, Record<string, string>] => ['funnels', { steps: JSON.stringify(steps) }]),
  ];
  for (const filters of FILTERS) {
    // 7 days compared with the 7 before: every day of the data, two ranges per request.
    for (const range of [{ period: '7d' }]) {
      for (const [endpoint, params] of variants) {
        const query = parseQuery(endpoint, { site_id: siteId, ...range, ...params, filters: JSON.stringify(filters), compare: 'previous_period' });
        out.push(`${endpoint} ${JSON.stringify([filters, range, params])} ${JSON.stringify(await REPORTS[endpoint](storage, query, { now: NOW }))}`);
      }
    }
    for (const hours of [{}, { filters: JSON.stringify(filters) }]) {
      const query = parseQuery('timeseries', { site_id: siteId, from: '2026-11-03', to: '2026-11-05', interval: 'hour', ...hours });
      out.push(`hours ${JSON.stringify(hours)} ${JSON.stringify(await REPORTS.timeseries(storage, query, { now: NOW }))}`);
    }
  }
  return out;
}

const open: Sqlite[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

async function store(options: Parameters<typeof createSqliteStore>[1] = {}, path = ':memory:'): Promise<Sqlite> {
  // Slices for every day however small (the default leaves days under 4,000 sessions to the column cache).
  const s = createSqliteStore(path, { now: () => NOW, sliceMinSessions: 0, ...options });
  open.push(s);
  for (const site of SITES) {
    await createSite(s, site);
    for (const goal of DEMO_GOALS) await addGoal(s, site.id, goal);
    for (const [i, steps] of FUNNELS.slice(0, 2).entries()) await addFunnel(s, site.id, { name: `Funnel ${i + 1}`, steps });
  }
  await importEvents(s, SITES.flatMap((site, i) => [
    ...demoNdjson({ siteId: site.id, days: 14, pageviewsPerDay: 60, seed: 7 + i, end: NOW, timezone: site.timezone, domain: site.domain }),
  ]));
  return s;
}

describe('SQLite filtered reads (column cache) against the raw definition', () => {
  // In memory a day loads at once on the store's connection; in a file, on a second connection, a batch of rows at a time.
  it.each([[':memory:'], ['a file']])('give the same JSON for every endpoint, filter, comparison and interval (%s)', async (where) => {
    const s = await store({}, where === ':memory:' ? where : join(dir, 'differential.db'));
    for (const site of SITES) {
      // The first reads of each range from the raw tables (the sets plan), as the days load.
      const fast = await answers(s, site.id);
      expect(fast).toEqual(await answers(rawOnly(s), site.id));
      expect(await answers(rawOnly(s, 'sets'), site.id)).toEqual(fast);
      // The filters select something and leave something out (the numbers are not all zero, not all the totals).
      expect(fast.some((line) => line.startsWith('stats') && /"sessions":[1-9]/.test(line))).toBe(true);
      // So do the prop: and goal filters, and /properties and /goals have rows with numbers.
      for (const dimension of ['prop:button', 'goal']) {
        expect(fast.some((line) => line.startsWith(`stats [[["is","${dimension}"`) && /"sessions":[1-9]/.test(line))).toBe(true);
      }
      expect(fast.some((line) => line.startsWith('properties [[],') && /"property":"url","count":[1-9]/.test(line))).toBe(true);
      expect(fast.some((line) => line.startsWith('properties [[["is","prop:button"') && /"value":"Start free trial","count":[1-9]/.test(line))).toBe(true);
      expect(fast.some((line) => line.startsWith('goals [[],') && /"goal":"Visit \/pricing","visitors":[1-9]/.test(line))).toBe(true);
      // Funnels: sessions reach their last steps.
      expect(fast.some((line) => line.startsWith('funnels [[],') && /"step":"signup","visitors":[1-9]/.test(line))).toBe(true);
      expect(fast.some((line) => line.startsWith('funnels [[],') && /"step":"download","visitors":[1-9]/.test(line))).toBe(true);
      await s.columnCacheFilled();
      expect(fast).toEqual(await answers(s, site.id)); // served again, from the cache
    }
  }, 180_000);

  it('stay exact under any budget: 1 byte (every day from the raw tables), the days larger than the median too large', async () => {
    const file = join(dir, 'budgets.db');
    const s = await store({ slices: false }, file);
    const expected = await answers(rawOnly(s), 'ST-berlin');
    expect(await answers(s, 'ST-berlin')).toEqual(expected);
    // Each day's chunk alone, as a cache of its own measures it (arrays and the strings it adds).
    const sizes: number[] = [];
    for (let day = '2026-10-22'; day <= '2026-11-05'; day = shiftDay(day, 1)) {
      const one = createSqliteStore(file, { now: () => NOW, slices: false });
      await one.summary({ siteId: 'ST-berlin', from: day, to: day, startMs: 0, endMs: 0 }, { session: [], page: [], event: [] });
      await one.columnCacheFilled();
      sizes.push(one.columnCacheStats().bytes);
      await one.close();
    }
    sizes.sort((a, b) => a - b);
    const median = sizes[Math.floor(sizes.length / 2)]!;
    const cases: [number, (stats: ColumnCacheStats) => void][] = [
      [1, (st) => expect([st.loads, st.bytes, st.tooLarge > 0]).toEqual([0, 0, true])],
      // An eighth of the budget is the median day: the larger days are read raw, the others cached.
      [median * 8, (st) => expect([st.loads > 0, st.tooLarge > 0]).toEqual([true, true])],
    ];
    for (const [columnCacheBytes, check] of cases) {
      const small = createSqliteStore(file, { now: () => NOW, columnCacheBytes, slices: false });
      open.push(small);
      expect(await answers(small, 'ST-berlin')).toEqual(expected);
      await small.columnCacheFilled();
      check(small.columnCacheStats());
    }
  }, 240_000);

  it('stay exact when a range is larger than the cache: the days it does not hold come from the raw tables, and it stays within its bound', async () => {
    // ALPHA's two days (11 events, S4 crossing midnight) again on each of 30 days, visitors and pages of their own
    // (`/c7/docs`): days of one size, each adding its strings.
    const s = await store({ slices: false }, join(dir, 'long.db'));
    await createSite(s, { id: 'ST-alpha', name: 'Alpha', timezone: 'UTC', domain: 'alpha.example' });
    await importEvents(s, Array.from({ length: 30 }, (_, d) => ALPHA.map((line) => ({
      ...line, visitor_id: `${line.visitor_id}-${d}`, ts: new Date(Date.parse(line.ts) - d * 86_400_000).toISOString(),
      url: line.url.replace(/^(https:\/\/[^/]+)?\//, (start) => `${start}c${d}/`),
    }))).flat().map((line) => JSON.stringify(line)));
    const alone = createSqliteStore(join(dir, 'long.db'), { now: () => NOW, slices: false });
    open.push(alone);
    const oneDay = { siteId: 'ST-alpha', from: '2026-10-20', to: '2026-10-20', startMs: 0, endMs: 0 };
    await alone.summary(oneDay, { session: [], page: [], event: [] });
    await alone.columnCacheFilled();
    // Every day fits (an eighth of the budget), not ten of them.
    const small = createSqliteStore(join(dir, 'long.db'), { now: () => NOW, columnCacheBytes: alone.columnCacheStats().bytes * 8, slices: false });
    open.push(small);
    const read = async (storage: Storage) => {
      const out: unknown[] = [];
      for (const filters of [[], [['contains', 'page', ['/docs']]], [['is', 'country', ['GB']], ['is', 'event', ['signup']]]]) {
        for (const endpoint of ['stats', 'timeseries', 'pages', 'referrers', 'events'] as const) {
          const query = parseQuery(endpoint, { site_id: 'ST-alpha', from: '2026-10-05', to: '2026-11-03', filters: JSON.stringify(filters) });
          out.push(await REPORTS[endpoint](storage, query, { now: NOW }));
        }
      }
      return out;
    };
    const expected = await read(rawOnly(s));
    // Copies 0..28 whole (6 sessions, 9 pageviews, bounces S2 and S5, 1,420 s each), copy 29's 10-05 only (S5, S6: 3
    // pageviews, 1 bounce, 10 s). Daily visitors: 5 on each day 10-05..11-02 (3 of one copy, 2 of the next), 2 on 11-03.
    expect(expected[0]).toEqual({ visitors: 29 * 5 + 2, pageviews: 29 * 9 + 3, sessions: 29 * 6 + 2, bounce_rate: 33.5, avg_duration: 234 });
    expect(await read(small)).toEqual(expected);
    await small.columnCacheFilled();
    const stats = small.columnCacheStats();
    // Ten filtered reads of 30 days; the cache holds about eight: the reads loaded what fits, and no more stayed.
    expect([stats.loads >= 8, stats.tooLarge, stats.bytes <= alone.columnCacheStats().bytes * 8]).toEqual([true, 0, true]);
  }, 120_000);

  it('follow writes: a late event into a cached past day, and events on the live day', async () => {
    const s = await store();
    const query = (filters: FilterCondition[]) => parseQuery('stats', { site_id: 'ST-berlin', period: '7d', filters: JSON.stringify(filters) });
    const filters: FilterCondition[] = [['is', 'page', ['/late-page']]];
    expect(await REPORTS.stats(s, query(filters), { now: NOW })).toMatchObject({ pageviews: 0, sessions: 0 });
    const late = { site_id: 'ST-berlin', visitor_id: 'late', session_id: 'late-1', type: 'pageview', country_code: 'DE' };
    await importEvents(s, [JSON.stringify({ ...late, ts: '2026-11-02T10:00:00Z', url: '/late-page' })]);
    await importEvents(s, [JSON.stringify({ ...late, session_id: 'live-1', ts: '2026-11-05T14:00:00Z', url: '/late-page' })]);
    // Two sessions of one visitor on two days: visitors 2 (daily), sessions 2, pageviews 2, both bounces.
    expect(await REPORTS.stats(s, query(filters), { now: NOW })).toEqual({ visitors: 2, pageviews: 2, sessions: 2, bounce_rate: 100, avg_duration: 0 });
    await importEvents(s, [JSON.stringify({ ...late, session_id: 'live-1', ts: '2026-11-05T14:01:00Z', type: 'event', name: 'signup', url: '/late-page' })]);
    expect(await REPORTS.stats(s, query(filters), { now: NOW })).toEqual({ visitors: 2, pageviews: 2, sessions: 2, bounce_rate: 50, avg_duration: 30 });
    expect(await answers(s, 'ST-berlin')).toEqual(await answers(rawOnly(s), 'ST-berlin'));
  }, 120_000);
});

/** A collector's beacon as the core stamps it (only the path and the ids matter to a page filter). */
const beacon = (ts: string, visitorId: string, path: string): StoredEvent => ({
  siteId: 'ST-alpha', ts: Date.parse(ts), day: ts.slice(0, 10), type: 'pageview', name: '', path, visitorId, sessionId: `${visitorId}-${ts}`, seq: 1,
  entryPath: path, referrerSource: 'Direct / None', channel: 'Direct', utmSource: '', utmMedium: '', utmCampaign: '',
  countryCode: 'FR', deviceType: 'Desktop', browser: 'Firefox', os: 'Linux',
});

describe('SQLite funnels from the column cache and from the raw tables', () => {
  it('follow record order on both paths: late writes, a start moved back a day, equal times out of seq order, equal ts and seq (the conformance\'s ST-flate)', async () => {
    const s = createSqliteStore(':memory:', { now: () => NOW });
    open.push(s);
    await createSite(s, { id: 'ST-flate', name: 'Late', timezone: 'UTC' });
    for (const write of LATE_WRITES) await s.writeEvents(write);
    const visitors = (day: string, steps: FunnelStep[], storage: Storage = s) =>
      storage.funnelVisitors!({ siteId: 'ST-flate', from: day, to: day, startMs: Date.parse(day), endMs: Date.parse(day) + 86_400_000 }, steps.map(stepGoal));
    // The numbers of conformance-funnels.ts: L1 /x /a /b signup, L3 {/b, /a} at one ts and seq then /b, L2 from 11-19.
    const cases: [string, FunnelStep[], number[]][] = [
      ['2026-11-20', [{ page: '/a' }, { page: '/b' }, { event: 'signup' }], [2, 2, 1]],
      ['2026-11-20', [{ page: '/b' }, { page: '/a' }], [2, 0]],
      ['2026-11-19', [{ page: '/a' }, { page: '/pricing' }], [1, 1]],
      ['2026-11-20', [{ page: '/a' }, { page: '/pricing' }], [2, 0]],
    ];
    for (const [day, steps, expected] of cases) {
      expect([day, steps, await visitors(day, steps, rawOnly(s))]).toEqual([day, steps, expected]);
      expect([day, steps, await visitors(day, steps)]).toEqual([day, steps, expected]); // raw: the day is not cached yet
      await s.columnCacheFilled();
      expect([day, steps, await visitors(day, steps)]).toEqual([day, steps, expected]); // the chunk's record order
    }
    expect(s.columnCacheStats().loads).toBeGreaterThanOrEqual(2);
  });
});

describe('SQLite column cache: a chunk reloads when its day, or a day it depends on, changes (any connection)', () => {
  /**
   * ALPHA (testing/datasets.ts, UTC) in a file. Filter `page is /docs`: the sessions with a /docs
   * pageview are S3 (v2, 11-02, 30 s), S4 (v3, 11-02 23:50 to 11-03 00:10, 1200 s) and S6 (v4, 11-03,
   * 10 s; its event clears the bounce). Visitors per day: 11-02 {v2, v3}, 11-03 {v4} = 3; selected
   * pageviews: S3's, S4's (on 11-03) and S6's = 3; no bounce; 1240 s / 3 = 413.3 s.
   * Chunks of 11-01..11-03: 3, and 11-03 depends on 11-02 (S4 started there).
   */
  const docs = (from = '2026-11-01', to = '2026-11-03') =>
    parseQuery('stats', { site_id: 'ST-alpha', from, to, filters: JSON.stringify([['is', 'page', ['/docs']]]) });
  // Slices off: these are the column cache's own cases (slices.test.ts has theirs).
  const setup = async (file: string, clock = { now: NOW }) => {
    const a = createSqliteStore(join(dir, file), { now: () => clock.now, slices: false });
    open.push(a);
    await createSite(a, { id: 'ST-alpha', name: 'Alpha', timezone: 'UTC', domain: 'alpha.example' });
    await importEvents(a, ndjson(ALPHA));
    return a;
  };
  const loadsOf = (s: Sqlite) => s.columnCacheStats().loads;
  /** Loads once the days a read took from the raw tables have loaded. */
  const settled = async (s: Sqlite) => {
    await s.columnCacheFilled();
    return loadsOf(s);
  };
  const days = (s: Sqlite, table: 'dirty_days' | 'live_days') => s.db.prepare(`SELECT day FROM ${table} WHERE site_id = 'ST-alpha'`).pluck().all();

  it('a write into a cached clean day, a day settling, and small writes into the live day', async () => {
    const clock = { now: NOW };
    const a = await setup('one.db', clock);
    expect(await REPORTS.stats(a, docs(), { now: clock.now })).toEqual({ visitors: 3, pageviews: 3, sessions: 3, bounce_rate: 0, avg_duration: 413.3 });
    expect(await settled(a)).toBe(3);
    await REPORTS.stats(a, docs(), { now: clock.now });
    expect(await settled(a)).toBe(3); // all cached

    // A late /docs bounce of v5 on 11-02 (clean until now): + 1 session, visitor and pageview, 1 bounce in 4, 1240 s / 4 = 310 s.
    await a.writeEvents([beacon('2026-11-02T15:00:00Z', 'v5', '/docs')]);
    expect(days(a, 'dirty_days')).toEqual(['2026-11-02']);
    expect(await REPORTS.stats(a, docs(), { now: clock.now })).toEqual({ visitors: 4, pageviews: 4, sessions: 4, bounce_rate: 25, avg_duration: 310 });
    expect(await settled(a)).toBe(5); // 11-02, and 11-03 which depends on it
    // A /pricing view on 11-03 changes nothing selected; 11-03 reloads alone (11-02 does not depend on it).
    await a.writeEvents([beacon('2026-11-03T16:00:00Z', 'v6', '/pricing')]);
    expect(await REPORTS.stats(a, docs(), { now: clock.now })).toEqual({ visitors: 4, pageviews: 4, sessions: 4, bounce_rate: 25, avg_duration: 310 });
    expect(await settled(a)).toBe(6);

    // Today (11-05) becomes live on the read after its first write; small writes then update it by deltas.
    const week = docs('2026-11-01', '2026-11-05');
    await a.writeEvents([beacon('2026-11-05T10:00:00Z', 'v7', '/docs')]);
    expect(await REPORTS.stats(a, week, { now: clock.now })).toMatchObject({ visitors: 5, pageviews: 5, sessions: 5 });
    expect(days(a, 'live_days')).toEqual(['2026-11-05']);
    const loaded = await settled(a); // 11-04 and 11-05 added
    expect(loaded).toBe(8);
    await a.writeEvents([beacon('2026-11-05T11:00:00Z', 'v8', '/docs')]);
    expect(days(a, 'dirty_days')).toEqual([]); // a delta, not a dirty day
    expect(await REPORTS.stats(a, week, { now: clock.now })).toMatchObject({ visitors: 6, pageviews: 6, sessions: 6 });
    expect(await settled(a)).toBe(loaded + 1); // 11-05 only

    // After 06:00 the next day, 11-05 settles (live -> clean): its rows, and so its chunk, stay as they were.
    clock.now = Date.parse('2026-11-06T07:00:00Z');
    expect(await REPORTS.stats(a, week, { now: clock.now })).toMatchObject({ visitors: 6, pageviews: 6, sessions: 6 });
    expect(days(a, 'live_days')).toEqual([]);
    expect(await settled(a)).toBe(loaded + 1);
    expect(await answers(a, 'ST-alpha')).toEqual(await answers(rawOnly(a), 'ST-alpha'));
  }, 60_000);

  it("another connection's small write and another connection's import", async () => {
    const a = await setup('two.db');
    const b = createSqliteStore(join(dir, 'two.db'), { now: () => NOW, slices: false }); // as the collector's worker and `siteline import` open it
    open.push(b);
    expect(await REPORTS.stats(a, docs(), { now: NOW })).toMatchObject({ visitors: 3, pageviews: 3, sessions: 3 });
    expect(await settled(a)).toBe(3);
    await b.writeEvents([beacon('2026-11-01T09:00:00Z', 'v5', '/docs')]);
    expect(await REPORTS.stats(a, docs(), { now: NOW })).toEqual({ visitors: 4, pageviews: 4, sessions: 4, bounce_rate: 25, avg_duration: 310 });
    expect(await settled(a)).toBe(4); // 3, then 11-01
    // An import of two /docs views of v6 on 11-03, 60 s apart: one more session (no bounce, 60 s): 5 sessions, 1300 s / 5 = 260 s.
    await importEvents(b, ndjson([
      { site_id: 'ST-alpha', ts: '2026-11-03T18:00:00Z', type: 'pageview', visitor_id: 'v6', url: '/docs' },
      { site_id: 'ST-alpha', ts: '2026-11-03T18:01:00Z', type: 'pageview', visitor_id: 'v6', url: '/docs?x=1' },
    ]));
    expect(await REPORTS.stats(a, docs(), { now: NOW })).toEqual({ visitors: 5, pageviews: 6, sessions: 5, bounce_rate: 20, avg_duration: 260 });
    expect(await settled(a)).toBe(5); // 11-03
    expect(await answers(a, 'ST-alpha')).toEqual(await answers(rawOnly(a), 'ST-alpha'));
  }, 60_000);

  it('answers a cold range from the raw tables at once, then loads it a day per turn of the event loop; a write between two loads is in the next answer', async () => {
    const a = await setup('three.db');
    // Ten days, 10-27..11-05, none loaded. A tick counter runs beside the loads; a /between view lands on 10-27 once that day is loaded.
    const query = parseQuery('stats', { site_id: 'ST-alpha', from: '2026-10-27', to: '2026-11-05', filters: JSON.stringify([['is', 'page', ['/between']]]) });
    expect(await REPORTS.stats(a, query, { now: NOW })).toEqual({ visitors: 0, pageviews: 0, sessions: 0, bounce_rate: 0, avg_duration: 0 });
    expect(loadsOf(a)).toBe(0); // answered before any day loaded
    let done = false;
    let ticks = 0;
    let wroteAfter = -1;
    const tick = () => {
      if (done) return;
      ticks++;
      if (wroteAfter < 0 && loadsOf(a) >= 1) {
        wroteAfter = loadsOf(a);
        void a.writeEvents([beacon('2026-10-27T12:00:00Z', 'v9', '/between')]);
      }
      setImmediate(tick);
    };
    setImmediate(tick);
    await a.columnCacheFilled();
    done = true;
    expect([wroteAfter, loadsOf(a)]).toEqual([1, 10]); // the write came after the first day's load, before the second's
    expect(ticks).toBeGreaterThanOrEqual(9); // other work ran between every two days
    // 10-27 changed after it was loaded: the next read takes it from the raw tables, and it loads again.
    expect(await REPORTS.stats(a, query, { now: NOW })).toEqual({ visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 100, avg_duration: 0 });
    expect(await settled(a)).toBe(11);
  }, 60_000);
});

describe("SQLite raw reads, the store's sets plan: sessions that started days before the range", () => {
  /**
   * One visitor's session `long` (its id given, so no 30-minute rule) with pageviews on 10-30 10:00 (/a), 11-01 09:00
   * (/b) and 11-02 08:00 (/a again), UTC: 70 hours, in `sessions_long`. And `short`, 11-01 23:50 (/d) and 11-02 00:20
   * (/e): it crosses midnight only. Filter `country is FR` (both sessions): 11-02 alone, no session starts there
   * (sessions 0), pageviews 2 (/a of long, /e of short); 11-01..11-02, sessions 1 (short), pageviews 4 (/b, /a, /d, /e).
   * Filter `page is /a` (long only): 11-02, sessions 0 and pageviews 1 (its second /a).
   */
  const lines = [
    ['long', '2026-10-30T10:00:00Z', '/a'], ['long', '2026-11-01T09:00:00Z', '/b'], ['long', '2026-11-02T08:00:00Z', '/a'],
    ['short', '2026-11-01T23:50:00Z', '/d'], ['short', '2026-11-02T00:20:00Z', '/e'],
  ].map(([session, ts, url]) => ({ site_id: 'ST-alpha', ts, type: 'pageview', visitor_id: 'v1', session_id: session, url, country_code: 'FR' }));
  const range = (from: string, to: string) => ({ siteId: 'ST-alpha', from, to, startMs: Date.parse(`${from}T00:00:00Z`), endMs: Date.parse(`${shiftDay(to, 1)}T00:00:00Z`) });
  const fr = { session: [{ attribute: 'countryCode' as const, operator: 'is' as const, values: ['FR'] }], page: [], event: [] };
  const pageA = { session: [], page: [{ operator: 'is' as const, values: ['/a'] }], event: [] };

  it('counts their events in the range, with the index and without it (a read-only store on a file before it); SQL pattern characters stay plain', async () => {
    const file = join(dir, 'long-sessions.db');
    const s = createSqliteStore(file, { now: () => NOW });
    open.push(s);
    await createSite(s, { id: 'ST-alpha', name: 'Alpha', timezone: 'UTC', domain: 'alpha.example' });
    await importEvents(s, lines.map((line) => JSON.stringify(line)));
    expect(s.db.prepare("SELECT session_id FROM sessions INDEXED BY sessions_long WHERE site_id = 'ST-alpha' AND end_ts - start_ts >= 43200000 AND end_ts >= 0").pluck().all()).toEqual(['long']);
    const sets = createRawSelectionReads(s.db, { plan: 'sets', timezoneOf: () => 'UTC' });
    const definition = createRawSelectionReads(s.db);
    for (const [r, selection] of [[range('2026-11-02', '2026-11-02'), fr], [range('2026-11-01', '2026-11-02'), fr], [range('2026-11-02', '2026-11-02'), pageA], [range('2026-10-31', '2026-11-02'), pageA]] as const) {
      expect(sets.summary(r, selection)).toEqual(definition.summary(r, selection));
      expect(sets.pages(r, selection)).toEqual(definition.pages(r, selection));
      expect(sets.timeseries(r, selection)).toEqual(definition.timeseries(r, selection));
    }
    expect(sets.summary(range('2026-11-02', '2026-11-02'), fr)).toMatchObject({ sessions: 0, pageviews: 2 });
    expect(sets.summary(range('2026-11-01', '2026-11-02'), fr)).toMatchObject({ sessions: 1, pageviews: 4 });
    expect(sets.summary(range('2026-11-02', '2026-11-02'), pageA)).toMatchObject({ sessions: 0, pageviews: 1 });
    // Characters special to SQL patterns are plain text to filters and goals: `[`, `]`, `%` and `_` match themselves.
    await importEvents(s, ['/a[1]/x', '/a1/x', '/a1/x', '/100%_off', '/100xyoff'].map((url, i) => JSON.stringify({
      site_id: 'ST-alpha', ts: `2026-11-03T1${i}:00:00Z`, type: 'pageview', visitor_id: `p${i}`, url, country_code: 'FR',
    })));
    const day = range('2026-11-03', '2026-11-03');
    const goals = [{ type: 'page' as const, value: '/a[1]/*' }, { type: 'page' as const, value: '/100%_*' }];
    expect(sets.goalTotals(day, goals, fr)).toEqual([{ visitors: 1, conversions: 1 }, { visitors: 1, conversions: 1 }]);
    expect(definition.goalTotals(day, goals, fr)).toEqual(sets.goalTotals(day, goals, fr));
    const contains = { session: [], page: [{ operator: 'contains' as const, values: ['%_', '[1]'] }], event: [] };
    expect(sets.summary(day, contains)).toMatchObject({ sessions: 2, pageviews: 2 });
    expect(definition.summary(day, contains)).toEqual(sets.summary(day, contains));
    // A read-only store on a file without the index (as before migration 10) reads the days before the range instead.
    s.db.exec('DROP INDEX sessions_long');
    const readonly = createSqliteStore(file, { now: () => NOW, readonly: true });
    open.push(readonly);
    expect(await readonly.summary(range('2026-11-02', '2026-11-02'), fr)).toMatchObject({ sessions: 0, pageviews: 2 });
  });
});

// The raw definition itself against the hand-computed cases: with the differential test above, it ties
// the column cache and the bench's naive scan to the same numbers.
testStorageExtensions({ name: 'sqlite, filtered reads from the raw SQL definition', create: async () => rawOnly(createSqliteStore(':memory:')) });
testStorageExtensions({ name: "sqlite, filtered reads from the raw tables by the store's sets plan", create: async () => rawOnly(createSqliteStore(':memory:'), 'sets') });
