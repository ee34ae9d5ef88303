import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openExport } from '../export/export-events.js';
import { importEvents } from '../import/import.js';
import { parseExportQuery, parseQuery, type RawParams } from '../query/parse.js';
import { REPORTS } from '../reports/index.js';
import { createSite, type NewSite } from '../sites/sites.js';
import type { Storage } from '../storage/types.js';
import type { EndpointName } from '../types.js';
import type { TestStorageOptions } from './conformance.js';
import { ALPHA, BETA, DELTA_FIRST, DELTA_SECOND, GAMMA_FIRST, GAMMA_SECOND, ndjson } from './datasets.js';
import { EXT } from './datasets-extensions.js';

/** Sessions whose channel comes from a click id of the landing URL alone (not stored, see export-line.ts). */
export const CLICKS = [
  { ts: '2026-11-05T09:00:00Z', type: 'pageview', visitor_id: 'c1', url: '/?gclid=abc', referrer: 'https://www.google.com/' },
  { ts: '2026-11-05T09:01:00Z', type: 'pageview', visitor_id: 'c1', url: '/pricing' },
  { ts: '2026-11-05T09:00:00Z', type: 'pageview', visitor_id: 'c2', url: '/?msclkid=x', referrer: 'https://www.bing.com/' },
  { ts: '2026-11-05T09:00:00Z', type: 'pageview', visitor_id: 'c3', url: '/?fbclid=y' },
  { ts: '2026-11-05T09:02:00Z', type: 'event', name: '=cmd|calc', visitor_id: 'c3', url: '/' },
].map((line) => ({ site_id: 'ST-clicks', ...line }));

const SITES: NewSite[] = [
  { id: 'ST-alpha', name: 'Alpha', timezone: 'UTC', domain: 'alpha.example' },
  { id: 'ST-beta', name: 'Beta', timezone: 'America/New_York' },
  { id: 'ST-gamma', name: 'Gamma' },
  { id: 'ST-delta', name: 'Delta' },
  { id: 'ST-ext', name: 'Extensions', timezone: 'UTC' },
  { id: 'ST-clicks', name: 'Clicks', timezone: 'Europe/Berlin', domain: 'clicks.example' },
];
const DATA = [ALPHA, BETA, GAMMA_FIRST, GAMMA_SECOND, DELTA_FIRST, DELTA_SECOND, EXT, CLICKS];
const WIDE = { from: '2026-10-01', to: '2026-11-30' };

/** Every endpoint with every variant that reads differently: intervals, breakdowns, compare, filters. */
const VARIANTS: [EndpointName, RawParams][] = [
  ['stats', {}], ['stats', { compare: 'previous_period' }], ['timeseries', {}], ['timeseries', { interval: 'week' }],
  ['timeseries', { interval: 'month' }], ['pages', { limit: '100' }], ['referrers', {}], ['channels', {}], ['locations', {}],
  ['devices', {}], ['devices', { breakdown: 'browser' }], ['devices', { breakdown: 'os' }], ['events', {}], ['campaigns', {}],
  ['pages', { limit: '100', filters: '[["is","country",["DE","GB"]]]' }], ['stats', { filters: '[["contains","page",["/"]]]' }],
  ['channels', { filters: '[["is_not","channel",["Direct"]]]', compare: 'previous_period' }],
];
/** Ranges of the data: the whole export, single days, and days of a sharp edge (DST, midnight). */
const RANGES = [WIDE, { from: '2026-11-02', to: '2026-11-03' }, { from: '2026-11-01', to: '2026-11-01' }, { from: '2026-11-05', to: '2026-11-05' }, { from: '2026-11-09', to: '2026-11-11' }];

/**
 * The export round trip: every site's events exported (`openExport`, in pages of 3 events
 * so that paging is exercised), imported into a second empty store of the same adapter
 * with the same sites, must give the same JSON on every endpoint, range and variant.
 * @example testExportRoundTrip({ name: 'sqlite', create: async () => createSqliteStorage(':memory:') });
 */
export function testExportRoundTrip({ name, create }: TestStorageOptions): void {
  describe(`export round trip: ${name}`, () => {
    let source: Storage;
    let copy: Storage;
    const exported = new Map<string, string>();

    beforeAll(async () => {
      [source, copy] = [await create(), await create()];
      for (const site of SITES) for (const store of [source, copy]) await createSite(store, site);
      for (const lines of DATA) await importEvents(source, ndjson(lines));
      for (const site of SITES) {
        let text = '';
        const { chunks } = await openExport(source, parseExportQuery({ site_id: site.id!, ...WIDE }), { pageSize: 3 });
        for await (const chunk of chunks) text += chunk;
        exported.set(site.id!, text);
        await importEvents(copy, text);
      }
    }, 120_000);
    afterAll(async () => {
      await source?.close();
      await copy?.close();
    });

    it('exports every event once, in time order, as import lines', () => {
      const lines = [...exported.values()].flatMap((text) => text.trimEnd().split('\n'));
      expect(lines.length).toBe(DATA.reduce((n, d) => n + d.length, 0));
      const alpha = exported.get('ST-alpha')!.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
      expect(alpha.map((l) => l.ts)).toEqual([...ALPHA.map((l) => l.ts)].sort().map((ts) => ts.replace('Z', '.000Z')));
      // S1's first event (datasets.ts): its campaign is in the fields, the query string is gone.
      expect(alpha[0]).toMatchObject({
        site_id: 'ST-alpha', ts: '2026-11-02T10:00:00.000Z', type: 'pageview', url: '/', visitor_id: 'v1', utm_source: 'newsletter',
        utm_medium: 'email', utm_campaign: 'nov', country_code: 'GB', device_type: 'Desktop', browser: 'Chrome', os: 'Windows',
      });
      expect(alpha[0]).not.toHaveProperty('referrer');
      // S3 from blog.example.org: the referrer source as a URL, on both of its events.
      expect(alpha.filter((l) => l.visitor_id === 'v2').map((l) => l.referrer)).toEqual(['https://blog.example.org/', 'https://blog.example.org/']);
      expect(alpha.find((l) => l.type === 'event' && l.name === 'signup')).toMatchObject({ url: '/pricing', session_id: alpha[0]!.session_id });
    });

    it('carries channels decided by a click id as the click id', () => {
      const clicks = exported.get('ST-clicks')!.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
      expect(clicks.map((l) => [l.visitor_id, l.url, l.referrer])).toEqual([
        ['c1', '/?gclid=export', 'https://google.com/'],
        ['c2', '/?gclid=export', 'https://bing.com/'], // msclkid and gclid are the same signal (an ad click): the first that works
        ['c3', '/?fbclid=export', undefined],
        ['c1', '/pricing?gclid=export', 'https://google.com/'],
        ['c3', '/?fbclid=export', undefined],
      ]);
    });

    it.each(SITES.map((s) => s.id!))('%s: every endpoint answers the same from the imported export', async (siteId) => {
      for (const range of RANGES) {
        for (const [endpoint, params] of VARIANTS) {
          const query = parseQuery(endpoint, { site_id: siteId, ...range, ...params });
          const [before, after] = await Promise.all([REPORTS[endpoint](source, query), REPORTS[endpoint](copy, query)]);
          expect({ endpoint, range, params, body: after }).toEqual({ endpoint, range, params, body: before });
        }
      }
      const hours = parseQuery('timeseries', { site_id: siteId, from: '2026-11-01', to: '2026-11-05', interval: 'hour' });
      expect(await REPORTS.timeseries(copy, hours)).toEqual(await REPORTS.timeseries(source, hours));
    });

    it('the channels of the click-id sessions survive the round trip', async () => {
      const query = parseQuery('channels', { site_id: 'ST-clicks', from: '2026-11-05', to: '2026-11-05' });
      expect(await REPORTS.channels(copy, query)).toEqual({ channels: [
        { channel: 'Paid Search', visitors: 2, sessions: 2 },
        { channel: 'Social', visitors: 1, sessions: 1 },
      ] });
    });
  });
}
