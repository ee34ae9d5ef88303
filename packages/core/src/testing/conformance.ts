import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuplicateImportError } from '../errors.js';
import { importEvents } from '../import/import.js';
import { parseQuery, type RawParams } from '../query/parse.js';
import { REPORTS } from '../reports/index.js';
import { createSite, editSite } from '../sites/sites.js';
import type { Storage } from '../storage/types.js';
import type { EndpointName } from '../types.js';
import { ALPHA, BETA, DELTA_FIRST, DELTA_SECOND, GAMMA_FIRST, GAMMA_SECOND, ndjson } from './datasets.js';
import { testStorageExtensions } from './conformance-extensions.js';
import { testStorageFunnels } from './conformance-funnels.js';
import { testStorageProperties } from './conformance-properties.js';
import { testStorageImported } from './conformance-imported.js';
import { testStorageConverters } from './conformance-converters.js';

export interface TestStorageOptions {
  /** Shown in the test names. */
  name: string;
  /** A new, empty storage; the suite closes it. */
  create: () => Promise<Storage>;
}

/**
 * The storage conformance suite: imports the small datasets of
 * `datasets.ts` and asserts every endpoint's exact JSON, then the query
 * extensions' cases (`conformance-extensions.ts`) in a second store, the
 * properties-and-goals cases (`conformance-properties.ts`) in a third and the funnel cases
 * (`conformance-funnels.ts`) in a fourth. A storage
 * adapter is proven by one line in its test file:
 *
 * @example
 * testStorage({ name: 'sqlite', create: async () => createSqliteStorage(':memory:') });
 */
export function testStorage({ name, create }: TestStorageOptions): void {
  describe(`storage conformance: ${name}`, () => {
    let storage: Storage;
    const report = <E extends EndpointName>(endpoint: E, params: RawParams, now?: string) =>
      REPORTS[endpoint](storage, parseQuery(endpoint, params), now ? { now: Date.parse(now) } : {});
    const alpha = (params: Record<string, string> = {}) => ({ site_id: 'ST-alpha', from: '2026-11-02', to: '2026-11-03', ...params });

    beforeAll(async () => {
      storage = await create();
      await createSite(storage, { id: 'ST-alpha', name: 'Alpha', timezone: 'UTC', domain: 'alpha.example' });
      await createSite(storage, { id: 'ST-beta', name: 'Beta', timezone: 'America/New_York' });
      await createSite(storage, { id: 'ST-gamma', name: 'Gamma' });
      await createSite(storage, { id: 'ST-delta', name: 'Delta' });
      await createSite(storage, { id: 'ST-empty', name: 'Empty', timezone: 'Asia/Kolkata', accountId: 'acct1' });
      await importEvents(storage, ndjson(ALPHA));
      await importEvents(storage, ndjson(BETA));
      await importEvents(storage, ndjson(GAMMA_FIRST));
      await importEvents(storage, ndjson(GAMMA_SECOND));
      await importEvents(storage, ndjson(DELTA_FIRST));
      await importEvents(storage, ndjson(DELTA_SECOND));
    });
    afterAll(() => storage?.close());

    it('stores and lists sites', async () => {
      expect(await storage.getSite('ST-empty')).toMatchObject({ id: 'ST-empty', name: 'Empty', timezone: 'Asia/Kolkata', domain: null, accountId: 'acct1' });
      expect(await storage.getSite('ST-alpha')).toMatchObject({ domain: 'alpha.example', accountId: null });
      expect(await storage.getSite('ST-nope')).toBeUndefined();
      expect((await storage.listSites()).map((s) => s.id).sort()).toEqual(['ST-alpha', 'ST-beta', 'ST-delta', 'ST-empty', 'ST-gamma']);
      expect((await storage.listSites({ accountId: 'acct1' })).map((s) => s.id)).toEqual(['ST-empty']);
      expect((await storage.listSites({ accountId: null })).map((s) => s.id).sort()).toEqual(['ST-alpha', 'ST-beta', 'ST-delta', 'ST-gamma']);
    });

    it('edits a site: name and domain change (twice in a row), the time zone, account and creation stay', async () => {
      const before = await createSite(storage, { id: 'ST-edit', name: 'Before', timezone: 'Asia/Kolkata', domain: 'before.example', accountId: 'acct2' });
      const edited = { ...before, name: "Tom's \\ site", domain: 'after.example' };
      expect(await editSite(storage, 'ST-edit', { name: " Tom's \\ site ", domain: 'WWW.After.Example' })).toEqual(edited);
      expect(await storage.getSite('ST-edit')).toEqual(edited);
      expect(await storage.listSites({ accountId: 'acct2' })).toEqual([edited]);
      await editSite(storage, 'ST-edit', { name: 'Twice', domain: null });
      expect(await storage.listSites({ accountId: 'acct2' })).toEqual([{ ...before, name: 'Twice', domain: null }]);
      await expect(editSite(storage, 'ST-edit', { name: '  ', domain: 'ok.example' })).rejects.toThrow('A site needs a name.');
      await expect(editSite(storage, 'ST-edit', { name: 'Bad', domain: 'https://x.example/a' })).rejects.toThrow('A domain is a host name such as example.com (no scheme or path).');
      expect(await storage.listSites({ accountId: 'acct2' })).toEqual([{ ...before, name: 'Twice', domain: null }]);
      expect(await editSite(storage, 'ST-nope', { name: 'Nobody' })).toBeUndefined();
      expect(await storage.getSite('ST-nope')).toBeUndefined();
    });

    it('/stats over two days, one day, and a day with only a late pageview', async () => {
      expect(await report('stats', alpha())).toEqual({ visitors: 5, pageviews: 9, sessions: 6, bounce_rate: 33.3, avg_duration: 236.7 });
      expect(await report('stats', alpha({ to: '2026-11-02' }))).toEqual({ visitors: 3, pageviews: 6, sessions: 4, bounce_rate: 25, avg_duration: 352.5 });
      expect(await report('stats', alpha({ from: '2026-11-03' }))).toEqual({ visitors: 2, pageviews: 3, sessions: 2, bounce_rate: 50, avg_duration: 5 });
    });

    it('/stats/timeseries zero-fills days without data, ascending', async () => {
      expect(await report('timeseries', alpha({ from: '2026-11-01', to: '2026-11-04' }))).toEqual({
        timeseries: [
          { date: '2026-11-01', visitors: 0, pageviews: 0, sessions: 0 },
          { date: '2026-11-02', visitors: 3, pageviews: 6, sessions: 4 },
          { date: '2026-11-03', visitors: 2, pageviews: 3, sessions: 2 },
          { date: '2026-11-04', visitors: 0, pageviews: 0, sessions: 0 },
        ],
      });
    });

    it('/pages ranks by pageviews, visitors, then url, with entry bounce rate and time on page', async () => {
      expect(await report('pages', alpha())).toEqual({
        pages: [
          { url: '/docs', pageviews: 3, visitors: 3, bounce_rate: 0, avg_duration: 10 },
          { url: '/pricing', pageviews: 3, visitors: 3, bounce_rate: 50, avg_duration: 75 },
          { url: '/', pageviews: 3, visitors: 2, bounce_rate: 33.3, avg_duration: 630 },
        ],
      });
      expect(await report('pages', alpha({ limit: '1' }))).toEqual({ pages: [{ url: '/docs', pageviews: 3, visitors: 3, bounce_rate: 0, avg_duration: 10 }] });
    });

    it('/referrers: www. stripped, self-referral and no referrer are Direct / None', async () => {
      expect(await report('referrers', alpha())).toEqual({
        referrers: [
          { source: 'Direct / None', visitors: 4, sessions: 4 },
          { source: 'blog.example.org', visitors: 1, sessions: 1 },
          { source: 'google.com', visitors: 1, sessions: 1 },
        ],
      });
    });

    it('/channels from referrer, UTM and click ids', async () => {
      expect(await report('channels', alpha())).toEqual({
        channels: [
          { channel: 'Direct', visitors: 2, sessions: 2 },
          { channel: 'Email', visitors: 1, sessions: 1 },
          { channel: 'Organic Search', visitors: 1, sessions: 1 },
          { channel: 'Paid Search', visitors: 1, sessions: 1 },
          { channel: 'Referral', visitors: 1, sessions: 1 },
        ],
      });
    });

    it('/locations with names, unknown as XX', async () => {
      expect(await report('locations', alpha())).toEqual({
        locations: [
          { country: 'United Kingdom', country_code: 'GB', visitors: 2 },
          { country: 'Germany', country_code: 'DE', visitors: 1 },
          { country: 'United States', country_code: 'US', visitors: 1 },
          { country: 'Unknown', country_code: 'XX', visitors: 1 },
        ],
      });
    });

    it('/devices by device type, browser and os (byte order breaks ties)', async () => {
      expect(await report('devices', alpha())).toEqual({
        breakdown: 'device_type',
        devices: [
          { name: 'Desktop', visitors: 3 },
          { name: 'Mobile', visitors: 1 },
          { name: 'Unknown', visitors: 1 },
        ],
      });
      expect(await report('devices', alpha({ breakdown: 'browser' }))).toEqual({
        breakdown: 'browser',
        devices: [
          { name: 'Chrome', visitors: 2 },
          { name: 'Firefox', visitors: 1 },
          { name: 'Safari', visitors: 1 },
          { name: 'Unknown', visitors: 1 },
        ],
      });
      expect(await report('devices', alpha({ breakdown: 'os' }))).toEqual({
        breakdown: 'os',
        devices: [
          { name: 'Windows', visitors: 2 },
          { name: 'Linux', visitors: 1 },
          { name: 'Unknown', visitors: 1 },
          { name: 'iOS', visitors: 1 },
        ],
      });
    });

    it('/events counts custom events by own day, optionally one name', async () => {
      expect(await report('events', alpha())).toEqual({ events: [{ name: 'download', count: 1 }, { name: 'signup', count: 1 }] });
      expect(await report('events', alpha({ name: 'signup' }))).toEqual({ events: [{ name: 'signup', count: 1 }] });
      expect(await report('events', alpha({ name: 'nope' }))).toEqual({ events: [] });
      expect(await report('events', alpha({ to: '2026-11-02' }))).toEqual({ events: [{ name: 'signup', count: 1 }] });
    });

    it('/campaigns keeps only sessions with the full UTM triple', async () => {
      expect(await report('campaigns', alpha())).toEqual({
        campaigns: [{ source: 'newsletter', medium: 'email', campaign: 'nov', visitors: 1, sessions: 1 }],
      });
    });

    it('/live counts visitors with a pageview in (now - 5 min, now]', async () => {
      expect(await report('live', { site_id: 'ST-alpha' }, '2026-11-03T12:04:00Z')).toEqual({ live: 1 });
      expect(await report('live', { site_id: 'ST-alpha' }, '2026-11-03T12:00:00Z')).toEqual({ live: 1 });
      expect(await report('live', { site_id: 'ST-alpha' }, '2026-11-03T12:05:00Z')).toEqual({ live: 0 });
      expect(await report('live', { site_id: 'ST-alpha', from: 'garbage', period: 'x' }, '2026-11-03T12:01:00Z')).toEqual({ live: 1 });
    });

    it('periods count back from today in the site time zone', async () => {
      const now = '2026-11-03T15:00:00Z';
      expect(await report('stats', { site_id: 'ST-alpha', period: '1d' }, now)).toEqual({ visitors: 2, pageviews: 3, sessions: 2, bounce_rate: 50, avg_duration: 5 });
      const all = { visitors: 5, pageviews: 9, sessions: 6, bounce_rate: 33.3, avg_duration: 236.7 };
      expect(await report('stats', { site_id: 'ST-alpha', period: '7d' }, now)).toEqual(all);
      expect(await report('stats', { site_id: 'ST-alpha' }, now)).toEqual(all);
      expect(await report('stats', { site_id: 'ST-alpha', period: '1d', from: '2026-11-02', to: '2026-11-02' }, now)).toMatchObject({ sessions: 4 });
      // 04:45Z on 11-02 is 23:45 EST on 11-01 in New York.
      expect(await report('stats', { site_id: 'ST-beta', period: '1d' }, '2026-11-02T04:45:00Z')).toMatchObject({ sessions: 2 });
    });

    it('days follow the site time zone across the end of daylight saving time', async () => {
      expect(await report('timeseries', { site_id: 'ST-beta', from: '2026-10-31', to: '2026-11-02' })).toEqual({
        timeseries: [
          { date: '2026-10-31', visitors: 1, pageviews: 2, sessions: 1 },
          { date: '2026-11-01', visitors: 2, pageviews: 3, sessions: 2 },
          { date: '2026-11-02', visitors: 0, pageviews: 1, sessions: 0 },
        ],
      });
      expect(await report('stats', { site_id: 'ST-beta', from: '2026-11-01', to: '2026-11-01' })).toEqual({
        visitors: 2, pageviews: 3, sessions: 2, bounce_rate: 50, avg_duration: 1500,
      });
      expect(await report('stats', { site_id: 'ST-beta', from: '2026-11-02', to: '2026-11-02' })).toEqual({
        visitors: 0, pageviews: 1, sessions: 0, bounce_rate: 0, avg_duration: 0,
      });
    });

    it('a session written in two batches, out of order, takes its first event\'s attributes', async () => {
      const gamma = { site_id: 'ST-gamma', from: '2026-11-02', to: '2026-11-02' };
      expect(await report('stats', gamma)).toEqual({ visitors: 1, pageviews: 2, sessions: 1, bounce_rate: 0, avg_duration: 600 });
      expect(await report('pages', gamma)).toEqual({
        pages: [
          { url: '/p', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 300 },
          { url: '/q', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 300 },
        ],
      });
      expect(await report('referrers', gamma)).toEqual({ referrers: [{ source: 'b.example', visitors: 1, sessions: 1 }] });
      expect(await report('events', gamma)).toEqual({ events: [{ name: 'ping', count: 1 }] });
    });

    it('an event added inside a stored session by a later write keeps the session\'s first-event attributes', async () => {
      const delta = { site_id: 'ST-delta', from: '2026-11-02', to: '2026-11-02' };
      expect(await report('stats', delta)).toEqual({ visitors: 1, pageviews: 3, sessions: 1, bounce_rate: 0, avg_duration: 1800 });
      expect(await report('referrers', delta)).toEqual({ referrers: [{ source: 'a.example', visitors: 1, sessions: 1 }] });
      expect(await report('locations', delta)).toEqual({ locations: [{ country: 'France', country_code: 'FR', visitors: 1 }] });
      expect(await report('pages', delta)).toEqual({
        pages: [
          { url: '/a', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 600 },
          { url: '/b', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 0 },
          { url: '/c', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 1200 },
        ],
      });
    });

    it('a site with no data gives zeros and empty lists', async () => {
      const empty = { site_id: 'ST-empty', from: '2026-11-01', to: '2026-11-02' };
      expect(await report('stats', empty)).toEqual({ visitors: 0, pageviews: 0, sessions: 0, bounce_rate: 0, avg_duration: 0 });
      expect(await report('timeseries', empty)).toEqual({
        timeseries: [
          { date: '2026-11-01', visitors: 0, pageviews: 0, sessions: 0 },
          { date: '2026-11-02', visitors: 0, pageviews: 0, sessions: 0 },
        ],
      });
      for (const [endpoint, key] of [['pages', 'pages'], ['referrers', 'referrers'], ['channels', 'channels'], ['locations', 'locations'], ['events', 'events'], ['campaigns', 'campaigns']] as const) {
        expect(await report(endpoint, empty)).toEqual({ [key]: [] });
      }
      expect(await report('devices', empty)).toEqual({ breakdown: 'device_type', devices: [] });
      expect(await report('live', empty)).toEqual({ live: 0 });
    });

    it('refuses to import the same data twice and stores nothing the second time', async () => {
      await expect(importEvents(storage, ndjson(ALPHA))).rejects.toBeInstanceOf(DuplicateImportError);
      expect(await report('stats', alpha())).toMatchObject({ pageviews: 9, sessions: 6 });
    });

    it('an import staged and written in batches of two (Storage.writeImport where there is one) stores what an import at once does', async () => {
      await createSite(storage, { id: 'ST-staged', name: 'Staged', timezone: 'UTC', domain: 'alpha.example' });
      // ALPHA's lines in reverse order: sessions S1 and S4 come back split across batches.
      const lines = ndjson(ALPHA.map((line) => ({ ...line, site_id: 'ST-staged' })).reverse());
      expect(await importEvents(storage, lines, { stageAfterEvents: 2 })).toMatchObject({ events: 11, pageviews: 9, customEvents: 2, sessions: 6, sites: ['ST-staged'] });
      for (const endpoint of ['stats', 'timeseries', 'pages', 'referrers', 'channels', 'locations', 'devices', 'events', 'campaigns'] as const) {
        expect(await report(endpoint, alpha({ site_id: 'ST-staged' }))).toEqual(await report(endpoint, alpha()));
      }
      await expect(importEvents(storage, lines, { stageAfterEvents: 2 })).rejects.toBeInstanceOf(DuplicateImportError);
      expect(await report('stats', alpha({ site_id: 'ST-staged' }))).toMatchObject({ pageviews: 9, sessions: 6 });
    });
  });
  testStorageExtensions({ name, create });
  testStorageProperties({ name, create });
  testStorageFunnels({ name, create });
  testStorageImported({ name, create });
  testStorageConverters({ name, create });
}
