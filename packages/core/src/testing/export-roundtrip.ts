import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openExport } from '../export/export-events.js';
import { addGoal } from '../goals/goals.js';
import { importEvents } from '../import/import.js';
import { parseExportQuery, parseQuery, type RawParams } from '../query/parse.js';
import { REPORTS } from '../reports/index.js';
import { createSite, type NewSite } from '../sites/sites.js';
import type { Storage } from '../storage/types.js';
import type { EndpointName } from '../types.js';
import type { TestStorageOptions } from './conformance.js';
import { ALPHA, BETA, DELTA_FIRST, DELTA_SECOND, GAMMA_FIRST, GAMMA_SECOND, ndjson } from './datasets.js';
import { EXT } from './datasets-extensions.js';
import { PROPS, PROPS_GOALS } from './datasets-properties.js';

/** Sessions whose channel comes from a click id of the landing URL alone (not stored, see export-line.ts). */
export const CLICKS = [
  { ts: '2026-11-05T09:00:00Z', type: 'pageview', visitor_id: 'c1', url: '/?gclid=abc', referrer: 'https://www.google.com/' },
  { ts: '2026-11-05T09:01:00Z', type: 'pageview', visitor_id: 'c1', url: '/pricing' },
  { ts: '2026-11-05T09:00:00Z', type: 'pageview', visitor_id: 'c2', url: '/?msclkid=x', referrer: 'https://www.bing.com/' },
  { ts: '2026-11-05T09:00:00Z', type: 'pageview', visitor_id: 'c3', url: '/?fbclid=y' },
  { ts: '2026-11-05T09:02:00Z', type: 'event', name: '=cmd|calc', visitor_id: 'c3', url: '/' },
].map((line) => ({ site_id: 'ST-clicks', ...line }));

/**
 * Properties that a careless writer would change: integer-like keys (an object puts them
 * first), quotes, a line break, non-ASCII, a formula-like value, a number and a boolean
 * (stored as text), an unset entry (dropped), a pageview's props (ignored).
 */
export const ODD_PROPS = [
  { ts: '2026-11-10T11:00:00Z', type: 'pageview', visitor_id: 'o1', url: '/odd', props: { ignored: 'yes' } },
  { ts: '2026-11-10T11:01:00Z', type: 'event', name: 'Odd', visitor_id: 'o1', url: '/odd',
    props: { z: 'last?', 2: 'two', 1: 'one', 'say "hi"': 'line\nbreak', 'größe': '=1+1', n: 1.5, ok: true, unset: null } },
  { ts: '2026-11-11T11:00:00Z', type: 'event', name: 'Odd', visitor_id: 'o2', url: '/odd', props: { 1: 'one', z: 'first' } },
].map((line) => ({ site_id: 'ST-props', ...line }));

/**
 * Sessions a store may keep apart from the day of their events: one (explicit id) with events
 * two days apart, and one whose start moves two days earlier with a second import (its first
 * state replaced). ClickHouse looks sessions up by the page's days first (export.ts).
 */
export const LONG_FIRST = [
  { ts: '2026-11-08T23:00:00Z', type: 'pageview', visitor_id: 'l1', session_id: 'long', url: '/long' },
  { ts: '2026-11-10T09:00:00Z', type: 'pageview', visitor_id: 'l1', session_id: 'long', url: '/long/end' },
  { ts: '2026-11-11T10:00:00Z', type: 'pageview', visitor_id: 'm1', session_id: 'moved', url: '/moved/later', country_code: 'FR' },
].map((line) => ({ site_id: 'ST-props', ...line }));
export const LONG_SECOND = [
  { ts: '2026-11-09T10:00:00Z', type: 'pageview', visitor_id: 'm1', session_id: 'moved', url: '/moved/first', country_code: 'NL' },
].map((line) => ({ site_id: 'ST-props', ...line }));

const SITES: NewSite[] = [
  { id: 'ST-alpha', name: 'Alpha', timezone: 'UTC', domain: 'alpha.example' },
  { id: 'ST-beta', name: 'Beta', timezone: 'America/New_York' },
  { id: 'ST-gamma', name: 'Gamma' },
  { id: 'ST-delta', name: 'Delta' },
  { id: 'ST-ext', name: 'Extensions', timezone: 'UTC' },
  { id: 'ST-clicks', name: 'Clicks', timezone: 'Europe/Berlin', domain: 'clicks.example' },
  { id: 'ST-props', name: 'Properties', timezone: 'UTC' },
];
const DATA = [ALPHA, BETA, GAMMA_FIRST, GAMMA_SECOND, DELTA_FIRST, DELTA_SECOND, EXT, CLICKS, PROPS, ODD_PROPS, LONG_FIRST, LONG_SECOND];
const WIDE = { from: '2026-10-01', to: '2026-11-30' };

/** Every endpoint with every variant that reads differently: intervals, breakdowns, compare, filters. */
const VARIANTS: [EndpointName, RawParams][] = [
  ['stats', {}], ['stats', { compare: 'previous_period' }], ['timeseries', {}], ['timeseries', { interval: 'week' }],
  ['timeseries', { interval: 'month' }], ['pages', { limit: '100' }], ['referrers', {}], ['channels', {}], ['locations', {}],
  ['devices', {}], ['devices', { breakdown: 'browser' }], ['devices', { breakdown: 'os' }], ['events', {}], ['campaigns', {}],
  ['pages', { limit: '100', filters: '[["is","country",["DE","GB"]]]' }], ['stats', { filters: '[["contains","page",["/"]]]' }],
  ['channels', { filters: '[["is_not","channel",["Direct"]]]', compare: 'previous_period' }],
  ['goals', {}], ['goals', { compare: 'previous_period' }], ['goals', { filters: '[["is","country",["DE"]]]' }],
  ['properties', { name: 'Signup' }], ['properties', { name: 'Signup', property: 'plan', compare: 'previous_period' }],
  ['properties', { name: 'Odd' }], ['properties', { name: 'Odd', property: '1' }], ['properties', { name: 'Odd', property: 'say "hi"' }],
  ['properties', { name: 'Download', property: 'file', filters: '[["is","goal",["Signup"]]]' }],
  ['stats', { filters: '[["is","prop:plan",["pro"]]]' }], ['events', { filters: '[["contains","prop:größe",["="]]]' }],
  ['pages', { limit: '100', filters: '[["is_not","goal",["Visit /thanks*"]]]' }],
];
/** Ranges of the data: the whole export, single days, and days of a sharp edge (DST, midnight). */
const RANGES = [WIDE, { from: '2026-11-02', to: '2026-11-03' }, { from: '2026-11-01', to: '2026-11-01' }, { from: '2026-11-05', to: '2026-11-05' }, { from: '2026-11-09', to: '2026-11-11' }];

/**
 * The export round trip: every site's events exported (`openExport`, in pages of 3 events
 * so that paging is exercised), imported into a second empty store of the same adapter
 * with the same sites (and the same goals), must give the same JSON on every endpoint, range
 * and variant, `/properties` and `/goals` included.
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
      for (const goal of PROPS_GOALS) for (const store of [source, copy]) await addGoal(store, 'ST-props', goal);
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

    it('carries each custom event\'s props as the import format\'s props, in their stored order, as text', () => {
      const lines = exported.get('ST-props')!.trimEnd().split('\n');
      const props = (visitor: string, type: string) => lines.map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.visitor_id === visitor && l.type === type).map((l) => l.props);
      // Q1, Q4, Q7 of visitor a (datasets-properties.ts): numbers as stored text, null dropped; pageviews none.
      expect(props('a', 'event')).toEqual([{ plan: 'pro', seats: '3' }, { file: 'a.pdf' }, { plan: 'pro' }, { plan: 'Pro' }]);
      expect(props('a', 'pageview')).toEqual([undefined, undefined, undefined, undefined]);
      expect(props('d', 'event')).toEqual([undefined]); // Q5's Signup without props
      // The odd line's text as written: stored order (the import line's, integer-like keys first as JSON.parse reads them), every value a string.
      const odd = lines.filter((l) => l.includes('"visitor_id":"o1"'));
      expect(odd[1]!.slice(odd[1]!.indexOf('"props"'))).toBe('"props":{"1":"one","2":"two","z":"last?","say \\"hi\\"":"line\\nbreak","größe":"=1+1","n":"1.5","ok":"true"}}');
      expect(odd[0]).not.toContain('"props"');
    });

    it('carries channels decided by a click id as the click id', () => {
      const clicks = exported.get('ST-clicks')!.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
      expect(clicks.map((l) => [l.visitor_id, l.url, l.referrer])).toEqual([
        ['c1', '/?gclid=export', 'https://google.com/'],
        ['c2', '/?msclkid=export', 'https://bing.com/'], // a gclid from Bing would be Bing's organic result (derive/click-ids.ts)
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
