/**
 * The differential check (used only by tests): one generated dataset
 * (about 30,000 events, four sites in four time zones) imported through the
 * core's `importEvents` into the SQLite store and into ClickHouse stores;
 * every report must give byte-identical JSON from all of them.
 */
import {
  addFunnel, addGoal, createSite, createSqliteStorage, getStats, importEvents, parseQuery, REPORTS, type EndpointName, type RawParams, type Storage,
} from '@siteline/core';
import { DIFF_FUNNELS, DIFF_GOALS, DIFF_SITES, DIFF_STEPS, generateDiffData } from './differential-data.js';

const SALT = (day: string) => `differential-salt-${day}`;

export type ReportCase = [EndpointName, Record<string, string>, string?];

/** Filters of the differential: each kind of condition, alone and combined. */
const FILTERS = [
  [['is', 'country', ['DE', 'GB']]],
  [['contains', 'page', ['/blog']]],
  [['is_not', 'page', ['/']], ['is', 'device_type', ['Desktop']]],
  [['is', 'event', ['signup', 'download']]],
  [['contains_not', 'entry_page', ['/docs']], ['is', 'utm_source', ['']], ['contains', 'event', ['a']]],
  [['is', 'prop:plan', ['pro', 'Pro']]],
  [['is_not', 'prop:plan', ['free']], ['is', 'event', ['signup']]],
  [['contains', 'prop:odd', ["'", '%', '\\']], ['is', 'prop:seats', ['']]],
  [['is', 'goal', ['signup', 'Visit /50%off']], ['is_not', 'goal', ['Visit /blog/*']]],
  [['contains', 'goal', ['Visit']], ['is', 'country', ['DE', 'GB', 'US']]],
  [['is', 'goal', ['no such goal']]],
  // One value of a session attribute: read from the rollups per value (rollups/one-value.ts).
  [['is', 'country', ['DE']]],
  [['is', 'source', ['Google']]],
  [['is', 'channel', ['Direct']]],
  // One page, event name or event goal: its sessions, pages, breakdowns, goals and funnels per day too.
  [['is', 'page', ['/pricing']]],
  [['is', 'page', ['/']]],
  [['is', 'event', ['play']]],
  [['is', 'goal', ['signup']]],
];

/** Adds the differential goals and funnels to every site of every store. */
export async function addDiffGoals(stores: Storage[]): Promise<void> {
  for (const storage of stores) {
    for (const site of DIFF_SITES) {
      for (const goal of DIFF_GOALS) await addGoal(storage, site.id, goal);
      for (const funnel of DIFF_FUNNELS) await addFunnel(storage, site.id, funnel);
    }
  }
}

const adHoc = (i: number) => ({ steps: JSON.stringify(DIFF_STEPS[i]) });

/** Reports to compare: [endpoint, params, now]. */
export function differentialCases(): ReportCase[] {
  const out: ReportCase[] = [];
  const ranges = [
    { from: '2026-10-15', to: '2026-12-05' },
    { from: '2026-10-28', to: '2026-11-03' },
    { from: '2026-11-01', to: '2026-11-02' },
    { from: '2026-11-29', to: '2026-11-30' },
    { from: '2025-01-01', to: '2025-01-31' },
  ];
  for (const site of DIFF_SITES) {
    for (const range of ranges) {
      const p = { site_id: site.id, ...range };
      out.push(['stats', p], ['timeseries', p], ['pages', { ...p, limit: '100' }], ['referrers', p], ['channels', p]);
      out.push(['locations', p], ['devices', p], ['devices', { ...p, breakdown: 'browser' }], ['devices', { ...p, breakdown: 'os' }]);
      out.push(['events', p], ['events', { ...p, name: 'signup' }], ['campaigns', p]);
      out.push(['properties', { ...p, name: 'signup' }], ['properties', { ...p, name: 'play', property: 'odd', limit: '100' }], ['goals', p]);
      out.push(['funnels', { ...p, funnel: 'Pricing' }], ['funnels', { ...p, funnel: 'Repeat' }], ...DIFF_STEPS.map((_, i): ReportCase => ['funnels', { ...p, ...adHoc(i) }]));
    }
    out.push(['stats', { site_id: site.id, period: '7d' }, '2026-11-10T06:00:00Z'], ['pages', { site_id: site.id, period: '1d' }, '2026-11-10T23:30:00Z']);
    // The query extensions over sessions that cross midnight and import batches (explicit ids run for hours).
    for (const range of [ranges[1]!, ranges[2]!]) {
      const p = { site_id: site.id, ...range };
      for (const filters of FILTERS) {
        const f = { ...p, filters: JSON.stringify(filters) };
        out.push(['stats', f], ['timeseries', f], ['pages', { ...f, limit: '100' }], ['channels', f], ['devices', f], ['events', f], ['campaigns', f]);
        out.push(['properties', { ...f, name: 'signup', property: 'plan' }], ['properties', { ...f, name: 'share' }], ['goals', f]);
        out.push(['funnels', { ...f, funnel: 'Pricing' }], ['funnels', { ...f, ...adHoc(0) }]);
      }
      out.push(['stats', { ...p, compare: 'previous_period', filters: JSON.stringify(FILTERS[0]) }], ['pages', { ...p, compare: 'previous_period', limit: '100' }]);
      out.push(['goals', { ...p, compare: 'previous_period', filters: JSON.stringify(FILTERS[5]) }], ['properties', { ...p, name: 'download', compare: 'year_over_year' }]);
      out.push(['funnels', { ...p, funnel: 'Repeat', compare: 'previous_period', filters: JSON.stringify(FILTERS[1]) }], ['funnels', { ...p, ...adHoc(1), compare: 'year_over_year' }]);
    }
    const hours = { site_id: site.id, ...ranges[2]!, interval: 'hour' };
    out.push(['timeseries', hours], ['timeseries', { ...hours, filters: JSON.stringify(FILTERS[2]) }]);
    for (const now of ['2026-11-05T12:00:00Z', '2026-11-10T18:03:00Z', '2026-11-20T09:30:00Z', '2026-11-25T00:01:00Z']) {
      out.push(['live', { site_id: site.id }, now]);
    }
  }
  return out;
}

const report = (storage: Storage, [endpoint, params, now]: ReportCase) =>
  REPORTS[endpoint](storage, parseQuery(endpoint, params as RawParams), now ? { now: Date.parse(now) } : {});

/**
 * A SQLite store and the given (migrated, empty) stores with the same sites
 * and the same stored events: the data is imported once, in three slices out
 * of order (the last first, then the first, then the middle one), so later
 * imports bring earlier events of stored sessions.
 */
export async function loadDifferential(stores: Storage[]): Promise<Storage> {
  const sqlite = createSqliteStorage(':memory:');
  for (const storage of [sqlite, ...stores]) for (const site of DIFF_SITES) await createSite(storage, site);
  await addDiffGoals([sqlite, ...stores]);
  const tee: Storage = {
    ...sqlite,
    writeEvents: async (events, record) => {
      await sqlite.writeEvents(events, record);
      for (const storage of stores) await storage.writeEvents(events, record);
    },
  };
  const [first, middle, last] = generateDiffData();
  for (const batch of [last!, first!, middle!]) await importEvents(tee, batch.map((line) => JSON.stringify(line)), { salt: SALT });
  return sqlite;
}

/** Pageviews of every site over the whole span, in a store. */
export async function totalPageviews(storage: Storage): Promise<number> {
  let total = 0;
  for (const site of DIFF_SITES) total += (await getStats(storage, parseQuery('stats', { site_id: site.id, from: '2026-10-15', to: '2026-12-05' }))).pageviews;
  return total;
}

/**
 * Every case whose JSON differs from SQLite's, described (empty when all agree). `every`: only
 * every `every`-th case, a cross-section of the sites, ranges, endpoints and filters for checks
 * that run many times over one dataset (the migration cases); the whole list otherwise.
 */
export async function differentialMismatches(sqlite: Storage, stores: { name: string; storage: Storage }[], { every = 1 } = {}): Promise<string[]> {
  const mismatches: string[] = [];
  for (const c of differentialCases().filter((_, i) => i % every === 0)) {
    const expected = JSON.stringify(await report(sqlite, c));
    for (const { name, storage } of stores) {
      const actual = JSON.stringify(await report(storage, c));
      if (actual !== expected) mismatches.push(`${name} ${JSON.stringify(c)}\n  sqlite:     ${expected.slice(0, 400)}\n  clickhouse: ${actual.slice(0, 400)}`);
    }
  }
  return mismatches;
}

/**
 * What the property and goal cases compare is not empty: the SQLite store's answers over
 * the whole span for the first site (keys, values, goals with visitors, filters that select),
 * as the list of what falls short (empty when all is there).
 */
export async function propertyCoverageGaps(sqlite: Storage): Promise<string[]> {
  const p = { site_id: DIFF_SITES[0]!.id, from: '2026-10-15', to: '2026-12-05' };
  const body = async (endpoint: EndpointName, params: Record<string, string>) => (await REPORTS[endpoint](sqlite, parseQuery(endpoint, params))) as unknown as Record<string, unknown[]>;
  const filtered = async (i: number) => ((await body('stats', { ...p, filters: JSON.stringify(FILTERS[i]) })) as unknown as { sessions: number }).sessions;
  const goals = (await body('goals', p)).goals as { visitors: number }[];
  const lastStep = async (params: Record<string, string>) => ((await body('funnels', { ...p, ...params })).steps as { visitors: number }[]).at(-1)!.visitors;
  const found = {
    keys: (await body('properties', { ...p, name: 'signup' })).properties!.length,
    oddValues: (await body('properties', { ...p, name: 'play', property: 'odd', limit: '100' })).values!.length,
    goalsWithVisitors: goals.filter((g) => g.visitors > 0).length,
    goals: goals.length,
    propFiltered: await filtered(5),
    goalFiltered: await filtered(8),
    noSuchGoal: await filtered(10),
    pricingLast: await lastStep({ funnel: 'Pricing' }),
    repeatLast: await lastStep({ funnel: 'Repeat' }),
    eventTwiceLast: await lastStep(adHoc(0)),
    eightLast: await lastStep(adHoc(2)),
  };
  const wanted: [keyof typeof found, (n: number) => boolean, string][] = [
    ['keys', (n) => n >= 3, '>= 3'], ['oddValues', (n) => n >= 8, '>= 8'], ['goalsWithVisitors', (n) => n >= 6, '>= 6'], ['goals', (n) => n === 8, '8'],
    ['propFiltered', (n) => n > 0, '> 0'], ['goalFiltered', (n) => n > 0, '> 0'], ['noSuchGoal', (n) => n === 0, '0'],
    ['pricingLast', (n) => n > 0, '> 0'], ['repeatLast', (n) => n > 0, '> 0'], ['eventTwiceLast', (n) => n > 0, '> 0'], ['eightLast', (n) => n > 0, '> 0'],
  ];
  return wanted.filter(([name, ok]) => !ok(found[name])).map(([name, , want]) => `${name}: ${found[name]}, want ${want}`);
}
