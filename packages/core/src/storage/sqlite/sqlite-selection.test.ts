import { afterEach, describe, expect, it } from 'vitest';
import { demoNdjson } from '../../demo/index.js';
import { importEvents } from '../../import/import.js';
import { parseQuery } from '../../query/parse.js';
import { REPORTS } from '../../reports/index.js';
import { testStorageExtensions } from '../../testing/conformance-extensions.js';
import { createSite } from '../../sites/sites.js';
import type { EndpointName, FilterCondition } from '../../types.js';
import type { Storage } from '../types.js';
import { createRawSelectionReads } from './sqlite-selection-raw.js';
import { createSqliteStore } from './sqlite-storage.js';

type Sqlite = ReturnType<typeof createSqliteStore>;

const NOW = Date.parse('2026-11-05T15:00:00Z');
const SITES = [
  { id: 'ST-berlin', name: 'Berlin', timezone: 'Europe/Berlin', domain: 'berlin.example' },
  { id: 'ST-delhi', name: 'Delhi', timezone: 'Asia/Kolkata', domain: 'delhi.example' },
];

/** The same store answering filtered reads and hour buckets from the raw tables: the definition the column cache must reproduce. */
function rawOnly(store: Sqlite): Storage {
  const raw = createRawSelectionReads(store.db);
  return {
    ...store,
    summary: async (r, s) => (s ? raw.summary(r, s) : store.summary(r)),
    timeseries: async (r, s) => (s ? raw.timeseries(r, s) : store.timeseries(r)),
    sessionBreakdown: async (r, d, s) => (s ? raw.sessionBreakdown(r, d, s) : store.sessionBreakdown(r, d)),
    pages: async (r, s) => (s ? raw.pages(r, s) : store.pages(r)),
    customEvents: async (r, name, s) => (s ? raw.customEvents(r, name, s) : store.customEvents(r, name)),
    hourBuckets: async (r, starts, s) => raw.hourBuckets(r, starts, s),
  };
}

/** Filters of every kind: one session dimension, a page, an event, combinations, negations and a condition nothing satisfies. */
const FILTERS: FilterCondition[][] = [
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
];

/** Every endpoint over a few ranges, filtered, compared and bucketed, as JSON lines. */
async function answers(storage: Storage, siteId: string): Promise<string[]> {
  const out: string[] = [];
  const variants: [EndpointName, Record<string, string>][] = [
    ['stats', {}], ['timeseries', {}], ['timeseries', { interval: 'week' }], ['pages', { limit: '100' }], ['referrers', {}], ['channels', {}],
    ['locations', {}], ['devices', { breakdown: 'browser' }], ['events', {}], ['events', { name: 'download' }], ['campaigns', {}],
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

async function store(options: Parameters<typeof createSqliteStore>[1] = {}): Promise<Sqlite> {
  const s = createSqliteStore(':memory:', { now: () => NOW, ...options });
  open.push(s);
  for (const site of SITES) await createSite(s, site);
  await importEvents(s, SITES.flatMap((site, i) => [
    ...demoNdjson({ siteId: site.id, days: 14, pageviewsPerDay: 60, seed: 7 + i, end: NOW, timezone: site.timezone, domain: site.domain }),
  ]));
  return s;
}

describe('SQLite filtered reads (column cache) against the raw definition', () => {
  it('give the same JSON for every endpoint, filter, comparison and interval', async () => {
    const s = await store();
    for (const site of SITES) {
      const fast = await answers(s, site.id);
      expect(fast).toEqual(await answers(rawOnly(s), site.id));
      // The filters select something and leave something out (the numbers are not all zero, not all the totals).
      expect(fast.some((line) => line.startsWith('stats') && /"sessions":[1-9]/.test(line))).toBe(true);
      expect(fast).toEqual(await answers(s, site.id)); // served again from the cache
    }
  }, 180_000);

  it('stay exact when the cache is smaller than a range (days pass through it)', async () => {
    const small = await store({ columnCacheRows: 500 });
    expect(await answers(small, 'ST-berlin')).toEqual(await answers(rawOnly(small), 'ST-berlin'));
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

// The raw definition itself against the hand-computed cases: with the differential test above, it ties
// the column cache and the bench's naive scan to the same numbers.
testStorageExtensions({ name: 'sqlite, filtered reads from the raw SQL definition', create: async () => rawOnly(createSqliteStore(':memory:')) });
