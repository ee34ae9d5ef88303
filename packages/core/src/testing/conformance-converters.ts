import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuplicateImportError, ImportError } from '../errors.js';
import { importGa4 } from '../import/ga4/ga4.js';
import { importUmami } from '../import/umami/umami.js';
import { parseQuery, type RawParams } from '../query/parse.js';
import { REPORTS } from '../reports/index.js';
import { createSite } from '../sites/sites.js';
import type { Storage } from '../storage/types.js';
import type { EndpointName } from '../types.js';
import { GA4_EXPORT, UMAMI_EVENT_DATA, UMAMI_EVENTS, UMAMI_SPLIT } from './datasets-converters.js';
import { storedZip } from './zip.js';

/**
 * Umami and GA4 exports converted into events (issue 39): the fixtures of
 * datasets-converters.ts imported through the one import, every endpoint's exact body
 * (sums by hand in the comments), rows left out and why, a repeated import refused.
 */
export function testStorageConverters({ name, create }: { name: string; create: () => Promise<Storage> }): void {
  describe(`storage conformance, Umami and GA4 imports: ${name}`, () => {
    let storage: Storage;
    const dir = mkdtempSync(join(tmpdir(), 'siteline-converters-test-'));
    const report = <E extends EndpointName>(endpoint: E, params: RawParams) => REPORTS[endpoint](storage, parseQuery(endpoint, params));

    beforeAll(async () => {
      storage = await create();
      for (const id of ['ST-umami', 'ST-umamisplit', 'ST-ga4']) await createSite(storage, { id, name: id, timezone: 'UTC', domain: id === 'ST-ga4' ? 'ga4.example' : 'umami.example' });
      writeFileSync(join(dir, 'umami.zip'), storedZip({ 'website_event.csv': UMAMI_EVENTS, 'event_data.csv': UMAMI_EVENT_DATA }));
      writeFileSync(join(dir, 'umami-split.zip'), storedZip(UMAMI_SPLIT));
      writeFileSync(join(dir, 'events_20260601.json'), GA4_EXPORT);
    });
    afterAll(async () => {
      await storage?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    describe('Umami', () => {
      const umami = (params: Record<string, string> = {}) => ({ site_id: 'ST-umami', from: '2026-05-01', to: '2026-05-02', ...params });

      it('imports website_event rows with event_data; the link event is left out and said so', async () => {
        expect(await importUmami(storage, join(dir, 'umami.zip'), { siteId: 'ST-umami' })).toEqual({
          events: 9, pageviews: 7, customEvents: 2, sessions: 5, sites: ['ST-umami'], hash: expect.stringMatching(/^[0-9a-f]{64}$/),
          skipped: [{ reason: 'event_type 3: not a pageview (1) or a custom event (2)', rows: 1 }],
        });
        await expect(importUmami(storage, join(dir, 'umami.zip'), { siteId: 'ST-umami' })).rejects.toBeInstanceOf(DuplicateImportError);
      });

      it('/stats, /stats/timeseries, /pages: a visit is a session, an Umami session a visitor per day', async () => {
        // Visitors: 05-01 s1, s2; 05-02 s2 (b2), s3. Bounces a2, b2. Durations 180 + 0 + 900 + 0 + 120.
        expect(await report('stats', umami())).toEqual({ visitors: 4, pageviews: 7, sessions: 5, bounce_rate: 40, avg_duration: 240 });
        expect(await report('timeseries', umami())).toEqual({
          timeseries: [{ date: '2026-05-01', visitors: 2, pageviews: 4, sessions: 3 }, { date: '2026-05-02', visitors: 2, pageviews: 3, sessions: 2 }],
        });
        // `/`: entries a1, a2, b2 (two bounces), timed once (120 s to /pricing). `/docs`: 120 s to download (the link event is gone).
        expect(await report('pages', umami())).toEqual({
          pages: [
            { url: '/', pageviews: 3, visitors: 2, bounce_rate: 66.7, avg_duration: 120 },
            { url: '/blog', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 900 },
            { url: '/blog/2', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 0 },
            { url: '/docs', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 120 },
            { url: '/pricing', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 60 },
          ],
        });
      });

      it('referrer from referrer_domain, UTM from url_query, channel by our rules, names and countries ours', async () => {
        expect(await report('referrers', umami())).toEqual({
          referrers: [
            { source: 'Direct / None', visitors: 3, sessions: 3 },
            { source: 'google.com', visitors: 1, sessions: 1 },
            { source: 'news.ycombinator.com', visitors: 1, sessions: 1 },
          ],
        });
        expect(await report('channels', umami())).toEqual({
          channels: [
            { channel: 'Direct', visitors: 2, sessions: 2 },
            { channel: 'Email', visitors: 1, sessions: 1 },
            { channel: 'Organic Search', visitors: 1, sessions: 1 },
            { channel: 'Social', visitors: 1, sessions: 1 },
          ],
        });
        expect(await report('campaigns', umami())).toEqual({ campaigns: [{ source: 'news', medium: 'email', campaign: 'may', visitors: 1, sessions: 1 }] });
        expect(await report('locations', umami())).toEqual({
          locations: [
            { country: 'United States', country_code: 'US', visitors: 2 },
            { country: 'Germany', country_code: 'DE', visitors: 1 },
            { country: 'Unknown', country_code: 'XX', visitors: 1 },
          ],
        });
        expect(await report('devices', umami())).toEqual({ breakdown: 'device_type', devices: [{ name: 'Desktop', visitors: 2 }, { name: 'Mobile', visitors: 2 }] });
        expect(await report('devices', umami({ breakdown: 'browser' }))).toEqual({
          breakdown: 'browser', devices: [{ name: 'Safari', visitors: 2 }, { name: 'Chrome', visitors: 1 }, { name: 'Edge', visitors: 1 }],
        });
        expect(await report('devices', umami({ breakdown: 'os' }))).toEqual({
          breakdown: 'os', devices: [{ name: 'iOS', visitors: 2 }, { name: 'Windows', visitors: 1 }, { name: 'macOS', visitors: 1 }],
        });
      });

      it('/events and /properties: custom events with their event_data', async () => {
        expect(await report('events', umami())).toEqual({ events: [{ name: 'download', count: 1 }, { name: 'signup', count: 1 }] });
        expect(await report('properties', umami({ name: 'signup' }))).toEqual({ name: 'signup', properties: [{ property: 'plan', count: 1, visitors: 1 }] });
      });

      it('the session attributes from a session.csv of their own give the same bodies', async () => {
        expect(await importUmami(storage, join(dir, 'umami-split.zip'), { siteId: 'ST-umamisplit' })).toMatchObject({ events: 9, sessions: 5 });
        for (const endpoint of ['stats', 'timeseries', 'pages', 'referrers', 'channels', 'locations', 'devices', 'events', 'campaigns'] as const) {
          expect(await report(endpoint, umami({ site_id: 'ST-umamisplit' }))).toEqual(await report(endpoint, umami()));
        }
      });

      it('rejects a file with bad rows as a whole, with their lines', async () => {
        await createSite(storage, { id: 'ST-umamibad', name: 'Bad', timezone: 'UTC' });
        const bad = join(dir, 'bad.csv');
        writeFileSync(bad, `${UMAMI_EVENTS.split('\n').slice(0, 2).join('\n')}\n${W_ROW('yesterday', '1', '')}\n${W_ROW('2026-05-01 10:00:00', '2', '')}\n`);
        const error = await importUmami(storage, bad, { siteId: 'ST-umamibad' }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ImportError);
        expect((error as ImportError).lineErrors).toEqual([
          { line: 3, reason: 'created_at must be a date and time, got "yesterday"' },
          { line: 4, reason: 'name must have 1 to 200 characters' },
        ]);
        expect(await report('stats', { site_id: 'ST-umamibad', from: '2026-05-01', to: '2026-05-02' })).toMatchObject({ pageviews: 0 });
      });
    });

    describe('Google Analytics 4', () => {
      const ga4 = (params: Record<string, string> = {}) => ({ site_id: 'ST-ga4', from: '2026-06-01', to: '2026-06-02', ...params });

      it('imports page_view and custom events; the events GA4 collects by itself and rows without a user are left out, said so', async () => {
        expect(await importGa4(storage, join(dir, 'events_20260601.json'), { siteId: 'ST-ga4' })).toEqual({
          events: 5, pageviews: 4, customEvents: 1, sessions: 3, sites: ['ST-ga4'], hash: expect.stringMatching(/^[0-9a-f]{64}$/),
          skipped: [
            { reason: 'session_start: an event GA4 collects by itself, not a pageview or custom event', rows: 1 },
            { reason: 'first_visit: an event GA4 collects by itself, not a pageview or custom event', rows: 1 },
            { reason: 'user_engagement: an event GA4 collects by itself, not a pageview or custom event', rows: 1 },
            { reason: 'scroll: an event GA4 collects by itself, not a pageview or custom event', rows: 1 },
            { reason: 'no user_pseudo_id (GA4 consent mode without analytics storage)', rows: 1 },
          ],
        });
        await expect(importGa4(storage, join(dir, 'events_20260601.json'), { siteId: 'ST-ga4' })).rejects.toBeInstanceOf(DuplicateImportError);
      });

      it('every endpoint from the converted events', async () => {
        // Visitors: 06-01 u1, u2; 06-02 u2. Bounces u2.200, u2.300. Durations 180 + 0 + 0.
        expect(await report('stats', ga4())).toEqual({ visitors: 3, pageviews: 4, sessions: 3, bounce_rate: 66.7, avg_duration: 60 });
        expect(await report('timeseries', ga4())).toEqual({
          timeseries: [{ date: '2026-06-01', visitors: 2, pageviews: 3, sessions: 2 }, { date: '2026-06-02', visitors: 1, pageviews: 1, sessions: 1 }],
        });
        expect(await report('pages', ga4())).toEqual({
          pages: [
            { url: '/', pageviews: 2, visitors: 2, bounce_rate: 50, avg_duration: 60 },
            { url: '/blog', pageviews: 1, visitors: 1, bounce_rate: 100, avg_duration: 0 },
            { url: '/pricing', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 120 },
          ],
        });
        expect(await report('referrers', ga4())).toEqual({ referrers: [{ source: 'Direct / None', visitors: 2, sessions: 2 }, { source: 'bing.com', visitors: 1, sessions: 1 }] });
        expect(await report('channels', ga4())).toEqual({
          channels: [
            { channel: 'Email', visitors: 1, sessions: 1 },
            { channel: 'Organic Search', visitors: 1, sessions: 1 },
            { channel: 'Paid Search', visitors: 1, sessions: 1 },
          ],
        });
        expect(await report('campaigns', ga4())).toEqual({ campaigns: [{ source: 'newsletter', medium: 'email', campaign: 'june', visitors: 1, sessions: 1 }] });
        // geo.country names mapped to codes: Myanmar (Burma) is MM.
        expect(await report('locations', ga4())).toEqual({
          locations: [{ country: 'Myanmar', country_code: 'MM', visitors: 2 }, { country: 'Germany', country_code: 'DE', visitors: 1 }],
        });
        expect(await report('devices', ga4())).toEqual({ breakdown: 'device_type', devices: [{ name: 'Mobile', visitors: 2 }, { name: 'Desktop', visitors: 1 }] });
        expect(await report('devices', ga4({ breakdown: 'browser' }))).toEqual({ breakdown: 'browser', devices: [{ name: 'Safari', visitors: 2 }, { name: 'Chrome', visitors: 1 }] });
        expect(await report('devices', ga4({ breakdown: 'os' }))).toEqual({ breakdown: 'os', devices: [{ name: 'iOS', visitors: 2 }, { name: 'Windows', visitors: 1 }] });
        expect(await report('events', ga4())).toEqual({ events: [{ name: 'sign_up', count: 1 }] });
        expect(await report('properties', ga4({ name: 'sign_up' }))).toEqual({ name: 'sign_up', properties: [{ property: 'method', count: 1, visitors: 1 }] });
      });

      it('rejects a file with bad rows as a whole, with their lines', async () => {
        await createSite(storage, { id: 'ST-ga4bad', name: 'Bad', timezone: 'UTC' });
        const bad = join(dir, 'bad.json');
        writeFileSync(bad, `${GA4_EXPORT.split('\n')[2]}\n{"event_name":"page_view","user_pseudo_id":"u9","event_timestamp":"soon"}\nnot json\n`);
        const error = await importGa4(storage, bad, { siteId: 'ST-ga4bad' }).catch((e: unknown) => e);
        expect((error as ImportError).lineErrors).toEqual([
          { line: 2, reason: 'event_timestamp must be microseconds since 1970 (an integer)' },
          { line: 3, reason: 'not a JSON object' },
        ]);
        expect(await report('stats', { site_id: 'ST-ga4bad', from: '2026-06-01', to: '2026-06-02' })).toMatchObject({ pageviews: 0 });
      });
    });
  });
}

/** A joined Umami row of visitor s9 at `createdAt` of `type`, named `name`. */
function W_ROW(createdAt: string, type: string, name: string): string {
  return `w,s9,v9,e99,umami.example,chrome,Linux,desktop,,,DE,,,,/x,,,,,X,${type},${name},,${createdAt}`;
}
