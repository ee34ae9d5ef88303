import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { importEvents } from '../import/import.js';
import { parseQuery, type RawParams } from '../query/parse.js';
import { REPORTS } from '../reports/index.js';
import { createSite } from '../sites/sites.js';
import type { Storage } from '../storage/types.js';
import type { EndpointName, FilterCondition } from '../types.js';
import { ndjson } from './datasets.js';
import { EXT, HOURS, KOLKATA, LEAP } from './datasets-extensions.js';
import type { TestStorageOptions } from './conformance.js';

/**
 * The query extensions' conformance cases (query-extensions.md): filters,
 * compare and interval over the datasets of `datasets-extensions.ts`, every
 * number worked out by hand (the working is in the comments). Runs in its own
 * store. Cases that need an optional part of the contract (filters:
 * `capabilities.selection`; `interval=hour`: `hourBuckets`) are skipped by
 * name for an adapter that does not declare it. `testStorage` runs it; call it
 * alone to run only these cases.
 *
 * @example
 * testStorageExtensions({ name: 'sqlite', create: async () => createSqliteStorage(':memory:') });
 */
export function testStorageExtensions({ name, create }: TestStorageOptions): void {
  describe(`storage conformance: ${name}, query extensions`, () => {
    let storage: Storage;
    const report = <E extends EndpointName>(endpoint: E, params: RawParams) => REPORTS[endpoint](storage, parseQuery(endpoint, params), {});
    const ext = (params: Record<string, string> = {}) => ({ site_id: 'ST-ext', from: '2026-11-10', to: '2026-11-11', ...params });
    const filtered = (filters: FilterCondition[], params: Record<string, string> = {}) => ext({ filters: JSON.stringify(filters), ...params });
    const needsFilters = (ctx: TestContext) => {
      if (storage.capabilities?.selection !== true) ctx.skip(`the ${storage.kind} storage does not declare capabilities.selection (filters)`);
    };
    const needsHours = (ctx: TestContext) => {
      if (!storage.hourBuckets) ctx.skip(`the ${storage.kind} storage does not implement hourBuckets (interval=hour)`);
    };

    beforeAll(async () => {
      storage = await create();
      await createSite(storage, { id: 'ST-ext', name: 'Extensions', timezone: 'UTC' });
      await createSite(storage, { id: 'ST-leap', name: 'Leap', timezone: 'UTC' });
      await createSite(storage, { id: 'ST-hours', name: 'Hours', timezone: 'America/New_York' });
      await createSite(storage, { id: 'ST-kolkata', name: 'Kolkata', timezone: 'Asia/Kolkata' });
      for (const lines of [EXT, LEAP, HOURS, KOLKATA]) await importEvents(storage, ndjson(lines));
    });
    afterAll(() => storage?.close());

    it('without the new parameters: the v1 bodies (E1-E6 over 11-10..11-11)', async () => {
      // Sessions E1-E6: 6. Visitors: 11-10 {a, b, c} + 11-11 {a, d, g} = 6. Pageviews 2+1+2+1+3+1 = 10.
      // Bounces E2, E6: 2/6 = 33.3 %. Durations 120+0+900+30+1200+0 = 2250 / 6 = 375.
      expect(await report('stats', ext())).toEqual({ visitors: 6, pageviews: 10, sessions: 6, bounce_rate: 33.3, avg_duration: 375 });
    });

    it('a session-dimension filter: country is DE or AT (E1, E2, E4, E5)', async (ctx) => {
      needsFilters(ctx);
      const f: FilterCondition[] = [['is', 'country', ['DE', 'AT']]];
      // Visitors 11-10 {a, b} + 11-11 {a, d} = 4; pageviews 2+1+1+3 = 7; bounce E2: 1/4; durations 120+0+30+1200 = 1350 / 4.
      expect(await report('stats', filtered(f))).toEqual({ visitors: 4, pageviews: 7, sessions: 4, bounce_rate: 25, avg_duration: 337.5 });
      // `/`: E1 (gap 60), E5 twice (gap 600, none): 3 views; visitors 11-10 {a} + 11-11 {d}; entered by E1, E5 (no bounce); (60+600)/2.
      // `/docs`: E4 (30), E5 (600): 2 views, 11-11 {a, d}; entered by E4 (no bounce); 315.
      // `/pricing`: E1 (60), E2 (none): 2 views, 11-10 {a, b}; entered by E2 (bounce): 100 %; 60.
      expect(await report('pages', filtered(f))).toEqual({
        pages: [
          { url: '/', pageviews: 3, visitors: 2, bounce_rate: 0, avg_duration: 330 },
          { url: '/docs', pageviews: 2, visitors: 2, bounce_rate: 0, avg_duration: 315 },
          { url: '/pricing', pageviews: 2, visitors: 2, bounce_rate: 100, avg_duration: 60 },
        ],
      });
      // Germany: E1 (a, 11-10), E4 (a, 11-11), E5 (d): 1 + 2 = 3 visitors; Austria: E2.
      expect(await report('locations', filtered(f))).toEqual({
        locations: [
          { country: 'Germany', country_code: 'DE', visitors: 3 },
          { country: 'Austria', country_code: 'AT', visitors: 1 },
        ],
      });
      // Custom events of matching sessions: signup (E1), download (E4).
      expect(await report('events', filtered(f))).toEqual({ events: [{ name: 'download', count: 1 }, { name: 'signup', count: 1 }] });
    });

    it('a session filter on source and on an unset UTM field', async (ctx) => {
      needsFilters(ctx);
      // Direct / None: E2, E3 (UTM tags but no referrer), E4, E6. Direct channel: E2 (b), E4 (a), E6 (g); Email: E3 (c).
      expect(await report('channels', filtered([['is', 'source', ['Direct / None']]]))).toEqual({
        channels: [{ channel: 'Direct', visitors: 3, sessions: 3 }, { channel: 'Email', visitors: 1, sessions: 1 }],
      });
      // utm_medium empty: all but E3. Visitors 11-10 {a, b} + 11-11 {a, d, g} = 5; pageviews 2+1+1+3+1 = 8;
      // bounces E2, E6: 2/5; durations 120+0+30+1200+0 = 1350 / 5 = 270.
      expect(await report('stats', filtered([['is', 'utm_medium', ['']]]))).toEqual({ visitors: 5, pageviews: 8, sessions: 5, bounce_rate: 40, avg_duration: 270 });
      expect(await report('campaigns', filtered([['is_not', 'utm_campaign', ['']]]))).toEqual({
        campaigns: [{ source: 'newsletter', medium: 'email', campaign: 'nov', visitors: 1, sessions: 1 }],
      });
    });

    it('a page filter with is_not: sessions with a pageview other than `/`, and those pageviews', async (ctx) => {
      needsFilters(ctx);
      const f: FilterCondition[] = [['is_not', 'page', ['/']]];
      // E6 viewed only `/`: out. E1-E5 match: visitors 11-10 {a, b, c} + 11-11 {a, d} = 5.
      // Selected pageviews: E1 /pricing, E2 /pricing, E3 /blog + /pricing, E4 /docs, E5 /docs = 6.
      // Bounce E2: 1/5; durations 120+0+900+30+1200 = 2250 / 5 = 450.
      expect(await report('stats', filtered(f))).toEqual({ visitors: 5, pageviews: 6, sessions: 5, bounce_rate: 20, avg_duration: 450 });
      // `/pricing`: E1 (gap 60), E2, E3 (11-11): 3 views; visitors 11-10 {a, b} + 11-11 {c}; entered by E2 (bounce); 60.
      // `/docs`: E4 (30), E5 (600): 315. `/blog`: E3 (900), entered by E3 (no bounce). `/` has no selected pageview: no row.
      expect(await report('pages', filtered(f))).toEqual({
        pages: [
          { url: '/pricing', pageviews: 3, visitors: 3, bounce_rate: 100, avg_duration: 60 },
          { url: '/docs', pageviews: 2, visitors: 2, bounce_rate: 0, avg_duration: 315 },
          { url: '/blog', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 900 },
        ],
      });
    });

    it('a page filter across midnight: a session matches by a pageview outside the range, a pageview counts in its own day', async (ctx) => {
      needsFilters(ctx);
      const f = JSON.stringify([['is', 'page', ['/pricing']]]);
      // 11-10 only: E1, E2 and E3 (its /pricing is on 11-11) match: 3 sessions, visitors {a, b, c};
      // selected pageviews on 11-10: /pricing of E1 and E2 = 2; bounce E2: 1/3; durations 120+0+900 = 1020 / 3 = 340.
      expect(await report('stats', { site_id: 'ST-ext', from: '2026-11-10', to: '2026-11-10', filters: f })).toEqual({
        visitors: 3, pageviews: 2, sessions: 3, bounce_rate: 33.3, avg_duration: 340,
      });
      // 11-11 only: no session starting that day viewed /pricing, but E3's /pricing (00:05) is a selected pageview of 11-11.
      expect(await report('stats', { site_id: 'ST-ext', from: '2026-11-11', to: '2026-11-11', filters: f })).toEqual({
        visitors: 0, pageviews: 1, sessions: 0, bounce_rate: 0, avg_duration: 0,
      });
    });

    it('an event filter: sessions with a download event, and only those events', async (ctx) => {
      needsFilters(ctx);
      const f: FilterCondition[] = [['is', 'event', ['download']]];
      // E4 only: 1 visitor (a on 11-11), its one pageview /docs, no bounce (it has a custom event), 30 s.
      expect(await report('stats', filtered(f))).toEqual({ visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 0, avg_duration: 30 });
      expect(await report('events', filtered(f))).toEqual({ events: [{ name: 'download', count: 1 }] });
      expect(await report('pages', filtered(f))).toEqual({ pages: [{ url: '/docs', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 30 }] });
      // `name` still applies on top: signup is not a selected event.
      expect(await report('events', filtered(f, { name: 'signup' }))).toEqual({ events: [] });
    });

    it('combined filters: the spec example (DE or AT, /pricing), then with an event and a device', async (ctx) => {
      needsFilters(ctx);
      // E1 (DE, /pricing) and E2 (AT, /pricing): pageviews = their /pricing views = 2; visitors 11-10 {a, b};
      // bounce E2: 1/2; durations 120+0 = 120 / 2 = 60.
      const example: FilterCondition[] = [['is', 'country', ['DE', 'AT']], ['is', 'page', ['/pricing']]];
      expect(await report('stats', filtered(example))).toEqual({ visitors: 2, pageviews: 2, sessions: 2, bounce_rate: 50, avg_duration: 60 });
      // ... and a signup event: E1 only; its /pricing view; 120 s; signup counted once.
      const withEvent: FilterCondition[] = [...example, ['is', 'event', ['signup']]];
      expect(await report('stats', filtered(withEvent))).toEqual({ visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 0, avg_duration: 120 });
      expect(await report('events', filtered(withEvent))).toEqual({ events: [{ name: 'signup', count: 1 }] });
      // DE, Mobile, viewed a page containing "doc": E5 only (E4 is Desktop); its /docs view; referred by google.com.
      const mobile: FilterCondition[] = [['is', 'country', ['DE']], ['contains', 'page', ['doc']], ['is', 'device_type', ['Mobile']]];
      expect(await report('referrers', filtered(mobile))).toEqual({ referrers: [{ source: 'google.com', visitors: 1, sessions: 1 }] });
      expect(await report('stats', filtered(mobile))).toEqual({ visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 0, avg_duration: 1200 });
      // Two conditions on one dimension must both hold: nothing is both DE and AT.
      expect(await report('stats', filtered([['is', 'country', ['DE']], ['is', 'country', ['AT']]]))).toEqual({
        visitors: 0, pageviews: 0, sessions: 0, bounce_rate: 0, avg_duration: 0,
      });
    });

    it('compare=previous_period: 11-08..11-09 beside 11-10..11-11, on every kind of endpoint', async () => {
      const cmp = { compare: 'previous_period' };
      // Compared range: P1 (e, 11-09, bounce) and P2 (f, 11-08, 360 s, 2 pageviews): visitors 2, pageviews 3, bounce 50 %, (0+360)/2.
      expect(await report('stats', ext(cmp))).toEqual({
        visitors: 6, pageviews: 10, sessions: 6, bounce_rate: 33.3, avg_duration: 375,
        comparison: { from: '2026-11-08', to: '2026-11-09', visitors: 2, pageviews: 3, sessions: 2, bounce_rate: 50, avg_duration: 180 },
      });
      // Per day: 11-10 E1, E2, E3 (4 pageviews on 11-10: 2+1+1); 11-11 E4, E5, E6 (6: E3's /pricing + 1 + 3 + 1).
      expect(await report('timeseries', ext(cmp))).toEqual({
        timeseries: [
          { date: '2026-11-10', visitors: 3, pageviews: 4, sessions: 3 },
          { date: '2026-11-11', visitors: 3, pageviews: 6, sessions: 3 },
        ],
        comparison: [
          { date: '2026-11-08', visitors: 1, pageviews: 2, sessions: 1 },
          { date: '2026-11-09', visitors: 1, pageviews: 1, sessions: 1 },
        ],
      });
      // Main `/`: E1 (60), E5 (600, none), E6: 4 views; 11-10 {a} + 11-11 {d, g}; entered by E1, E5, E6 (bounce): 33.3; 330.
      // `/pricing`: E1 (60), E2, E3: 3; {a, b} + {c}; entered by E2: 100; 60. Compared `/`: P2 (gap 300), entered by P2.
      // Compared `/pricing`: P1, P2 (gap 60 to its signup): 2 views, 11-09 {e} + 11-08 {f}; entered by P1 (bounce): 100; 60.
      expect(await report('pages', ext({ ...cmp, limit: '2' }))).toEqual({
        pages: [
          { url: '/', pageviews: 4, visitors: 3, bounce_rate: 33.3, avg_duration: 330, comparison: { pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 300 } },
          { url: '/pricing', pageviews: 3, visitors: 3, bounce_rate: 100, avg_duration: 60, comparison: { pageviews: 2, visitors: 2, bounce_rate: 100, avg_duration: 60 } },
        ],
      });
      // Direct / None: E2, E3, E4, E6 (b, c; a, g); google.com: E1, E5. Compared: P1 direct, P2 google.
      expect(await report('referrers', ext(cmp))).toEqual({
        referrers: [
          { source: 'Direct / None', visitors: 4, sessions: 4, comparison: { visitors: 1, sessions: 1 } },
          { source: 'google.com', visitors: 2, sessions: 2, comparison: { visitors: 1, sessions: 1 } },
        ],
      });
      // Direct: E2, E4, E6; Organic Search: E1, E5; Email: E3. Compared: P1 Direct, P2 Organic Search, no Email (zeros).
      expect(await report('channels', ext(cmp))).toEqual({
        channels: [
          { channel: 'Direct', visitors: 3, sessions: 3, comparison: { visitors: 1, sessions: 1 } },
          { channel: 'Organic Search', visitors: 2, sessions: 2, comparison: { visitors: 1, sessions: 1 } },
          { channel: 'Email', visitors: 1, sessions: 1, comparison: { visitors: 0, sessions: 0 } },
        ],
      });
      // Germany: a (11-10), a and d (11-11) = 3; the rest 1 each, by name. Compared: P1 is DE; P2 is FR, which has no main row.
      expect(await report('locations', ext(cmp))).toEqual({
        locations: [
          { country: 'Germany', country_code: 'DE', visitors: 3, comparison: { visitors: 1 } },
          { country: 'Austria', country_code: 'AT', visitors: 1, comparison: { visitors: 0 } },
          { country: 'United Kingdom', country_code: 'GB', visitors: 1, comparison: { visitors: 0 } },
          { country: 'United States', country_code: 'US', visitors: 1, comparison: { visitors: 0 } },
        ],
      });
      // Safari: E2 (b); compared P1 is Chrome, P2 Safari: Safari 1. Chrome: E1, E4 (a twice on two days), E5 (d).
      expect(await report('devices', ext({ ...cmp, breakdown: 'browser' }))).toEqual({
        breakdown: 'browser',
        devices: [
          { name: 'Chrome', visitors: 3, comparison: { visitors: 1 } },
          { name: 'Edge', visitors: 1, comparison: { visitors: 0 } },
          { name: 'Firefox', visitors: 1, comparison: { visitors: 0 } },
          { name: 'Safari', visitors: 1, comparison: { visitors: 1 } },
        ],
      });
      expect(await report('events', ext(cmp))).toEqual({
        events: [{ name: 'download', count: 1, comparison: { count: 0 } }, { name: 'signup', count: 1, comparison: { count: 1 } }],
      });
      expect(await report('campaigns', ext(cmp))).toEqual({
        campaigns: [{ source: 'newsletter', medium: 'email', campaign: 'nov', visitors: 1, sessions: 1, comparison: { visitors: 0, sessions: 0 } }],
      });
    });

    it('filters apply to both ranges of a comparison', async (ctx) => {
      needsFilters(ctx);
      // Main as in the DE/AT case; compared: P1 (DE) matches, P2 (FR) does not.
      expect(await report('stats', filtered([['is', 'country', ['DE', 'AT']]], { compare: 'previous_period' }))).toEqual({
        visitors: 4, pageviews: 7, sessions: 4, bounce_rate: 25, avg_duration: 337.5,
        comparison: { from: '2026-11-08', to: '2026-11-09', visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 100, avg_duration: 0 },
      });
    });

    it('compare=year_over_year: 29 February becomes 28 February; row counts may differ by one', async () => {
      const leap = (from: string, to: string, params: Record<string, string> = {}) => ({ site_id: 'ST-leap', from, to, compare: 'year_over_year', ...params });
      // 2028-02-29 (L1, a bounce) against 2027-02-28 (L3: 2 pageviews, 60 s).
      expect(await report('stats', leap('2028-02-29', '2028-02-29'))).toEqual({
        visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 100, avg_duration: 0,
        comparison: { from: '2027-02-28', to: '2027-02-28', visitors: 1, pageviews: 2, sessions: 1, bounce_rate: 0, avg_duration: 60 },
      });
      // Three days of 2028 against two of 2027 (28 Feb and 29 Feb both become 2027-02-28).
      expect(await report('timeseries', leap('2028-02-28', '2028-03-01'))).toEqual({
        timeseries: [
          { date: '2028-02-28', visitors: 0, pageviews: 0, sessions: 0 },
          { date: '2028-02-29', visitors: 1, pageviews: 1, sessions: 1 },
          { date: '2028-03-01', visitors: 1, pageviews: 1, sessions: 1 },
        ],
        comparison: [
          { date: '2027-02-28', visitors: 1, pageviews: 2, sessions: 1 },
          { date: '2027-03-01', visitors: 1, pageviews: 1, sessions: 1 },
        ],
      });
      // Two days of 2025 against three of 2024, which include 29 February (L5).
      expect(await report('timeseries', leap('2025-02-28', '2025-03-01'))).toEqual({
        timeseries: [
          { date: '2025-02-28', visitors: 0, pageviews: 0, sessions: 0 },
          { date: '2025-03-01', visitors: 0, pageviews: 0, sessions: 0 },
        ],
        comparison: [
          { date: '2024-02-28', visitors: 0, pageviews: 0, sessions: 0 },
          { date: '2024-02-29', visitors: 1, pageviews: 1, sessions: 1 },
          { date: '2024-03-01', visitors: 0, pageviews: 0, sessions: 0 },
        ],
      });
      // `/` (L1) and `/a` (L2), both bounces; compared: `/` of L3 (gap 60, no bounce), `/a` of L4 (bounce).
      expect(await report('pages', leap('2028-02-29', '2028-03-01'))).toEqual({
        pages: [
          { url: '/', pageviews: 1, visitors: 1, bounce_rate: 100, avg_duration: 0, comparison: { pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 60 } },
          { url: '/a', pageviews: 1, visitors: 1, bounce_rate: 100, avg_duration: 0, comparison: { pageviews: 1, visitors: 1, bounce_rate: 100, avg_duration: 0 } },
        ],
      });
    });

    it('interval=week and month: every overlapping bucket, labelled by its Monday or month, summing only the range\'s days', async () => {
      const range = { site_id: 'ST-ext', from: '2026-10-28', to: '2026-11-11' };
      // Weeks: Mon 10-26 (P3 on 10-31), Mon 11-02 (P2 on 11-08), Mon 11-09 (P1 on 11-09; 11-10 and 11-11 as above).
      // Week of 11-09: visitors 1 + 3 + 3 = 7 (a counts on both of its days), pageviews 1 + 4 + 6 = 11, sessions 7.
      expect(await report('timeseries', { ...range, interval: 'week' })).toEqual({
        timeseries: [
          { date: '2026-10-26', visitors: 1, pageviews: 1, sessions: 1 },
          { date: '2026-11-02', visitors: 1, pageviews: 2, sessions: 1 },
          { date: '2026-11-09', visitors: 7, pageviews: 11, sessions: 7 },
        ],
      });
      // Months add up to the /stats total of the range: 1 + 8 visitors.
      expect(await report('timeseries', { ...range, interval: 'month' })).toEqual({
        timeseries: [
          { date: '2026-10', visitors: 1, pageviews: 1, sessions: 1 },
          { date: '2026-11', visitors: 8, pageviews: 13, sessions: 8 },
        ],
      });
      expect(await report('stats', range)).toMatchObject({ visitors: 9, pageviews: 14, sessions: 9 });
      // A range starting on a Wednesday is still labelled by its Monday; so is the compared day 11-10 (E1-E3).
      expect(await report('timeseries', { site_id: 'ST-ext', from: '2026-11-11', to: '2026-11-11', interval: 'week', compare: 'previous_period' })).toEqual({
        timeseries: [{ date: '2026-11-09', visitors: 3, pageviews: 6, sessions: 3 }],
        comparison: [{ date: '2026-11-09', visitors: 3, pageviews: 4, sessions: 3 }],
      });
    });

    it('interval=hour across the end of daylight saving time: the repeated hour twice, with its offsets', async (ctx) => {
      needsHours(ctx);
      const { timeseries } = (await report('timeseries', { site_id: 'ST-hours', from: '2026-11-01', to: '2026-11-01', interval: 'hour' })) as { timeseries: { date: string }[] };
      // 25 local hours: 00 and 01 at -04:00, then 01 again and 02..23 at -05:00.
      expect(timeseries).toHaveLength(25);
      expect(timeseries.slice(0, 5)).toEqual([
        { date: '2026-11-01T00:00:00-04:00', visitors: 0, pageviews: 0, sessions: 0 },
        { date: '2026-11-01T01:00:00-04:00', visitors: 1, pageviews: 1, sessions: 1 }, // H1
        { date: '2026-11-01T01:00:00-05:00', visitors: 2, pageviews: 3, sessions: 2 }, // H2 (p, 2 pageviews), H3 (q)
        { date: '2026-11-01T02:00:00-05:00', visitors: 1, pageviews: 1, sessions: 1 }, // H4 starts
        { date: '2026-11-01T03:00:00-05:00', visitors: 0, pageviews: 1, sessions: 0 }, // H4's second pageview
      ]);
      expect(timeseries[24]).toEqual({ date: '2026-11-01T23:00:00-05:00', visitors: 0, pageviews: 0, sessions: 0 });
      // The day's visitors are p, q, r: 3; hours count p in each of its two hours.
      expect(await report('stats', { site_id: 'ST-hours', from: '2026-11-01', to: '2026-11-01' })).toMatchObject({ visitors: 3, pageviews: 6, sessions: 4 });
      // Spring forward: 2027-03-14 has 23 hours, no 02:00.
      const spring = (await report('timeseries', { site_id: 'ST-hours', from: '2027-03-14', to: '2027-03-14', interval: 'hour' })) as { timeseries: { date: string }[] };
      expect(spring.timeseries.map((r) => r.date).slice(1, 3)).toEqual(['2027-03-14T01:00:00-05:00', '2027-03-14T03:00:00-04:00']);
      expect(spring.timeseries).toHaveLength(23);
    });

    it('interval=hour with a 30-minute offset, with a filter, and compared', async (ctx) => {
      needsHours(ctx);
      // Asia/Kolkata: K1 at 09:59 and K2 at 10:00 local fall in two hours that start at 03:30Z and 04:30Z.
      const { timeseries } = (await report('timeseries', { site_id: 'ST-kolkata', from: '2026-11-02', to: '2026-11-02', interval: 'hour' })) as { timeseries: unknown[] };
      expect(timeseries).toHaveLength(24);
      expect(timeseries.slice(9, 11)).toEqual([
        { date: '2026-11-02T09:00:00+05:30', visitors: 1, pageviews: 1, sessions: 1 },
        { date: '2026-11-02T10:00:00+05:30', visitors: 1, pageviews: 1, sessions: 1 },
      ]);
      // Compared with the day before (no data): 24 zero rows labelled 2026-11-01.
      const compared = (await report('timeseries', { site_id: 'ST-kolkata', from: '2026-11-02', to: '2026-11-02', interval: 'hour', compare: 'previous_period' })) as { comparison: { date: string; visitors: number }[] };
      expect(compared.comparison).toHaveLength(24);
      expect(compared.comparison[0]).toEqual({ date: '2026-11-01T00:00:00+05:30', visitors: 0, pageviews: 0, sessions: 0 });
      if (storage.capabilities?.selection !== true) return;
      // Page /y: session H2 only, its /y view at 01:20 EST.
      const hours = (await report('timeseries', { site_id: 'ST-hours', from: '2026-11-01', to: '2026-11-01', interval: 'hour', filters: '[["is","page",["/y"]]]' })) as { timeseries: { visitors: number }[] };
      expect(hours.timeseries.slice(1, 4)).toEqual([
        { date: '2026-11-01T01:00:00-04:00', visitors: 0, pageviews: 0, sessions: 0 },
        { date: '2026-11-01T01:00:00-05:00', visitors: 1, pageviews: 1, sessions: 1 },
        { date: '2026-11-01T02:00:00-05:00', visitors: 0, pageviews: 0, sessions: 0 },
      ]);
      expect(hours.timeseries.reduce((sum, row) => sum + row.visitors, 0)).toBe(1);
    });
  });
}
