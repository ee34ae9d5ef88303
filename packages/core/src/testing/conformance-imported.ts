import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuplicateImportError, ImportError } from '../errors.js';
import { addGoal } from '../goals/goals.js';
import { importEvents } from '../import/import.js';
import { importPlausible } from '../import/plausible/plausible.js';
import { parseQuery, type RawParams } from '../query/parse.js';
import { REPORTS } from '../reports/index.js';
import { createSite } from '../sites/sites.js';
import type { Storage } from '../storage/types.js';
import type { EndpointName } from '../types.js';
import { ndjson } from './datasets.js';
import { PLAUSIBLE_EXPORT, PLAUSIBLE_LEGACY, PLAUSIBLE_NATIVE } from './datasets-plausible.js';
import { storedZip } from './zip.js';

const INCLUDED = { included: true, days: 2 };
const ENDPOINTS = ['stats', 'timeseries', 'pages', 'referrers', 'channels', 'locations', 'devices', 'events', 'campaigns', 'goals', 'properties'] as const;

/**
 * Imported daily totals (issue 39): the Plausible export of datasets-plausible.ts on a site
 * with native events, every endpoint's exact body, the filters one table answers and the
 * ones it does not, `imported=exclude`, a repeated import, and a delete that gives back every
 * body byte for byte. Sums by hand in the comments: imported days 03-01 and 03-02 count,
 * 03-03 does not (native events); native: session A (03-03, `/`, Google, bounce) and B
 * (03-04, `/pricing` + Signup, 60 s).
 */
export function testStorageImported({ name, create }: { name: string; create: () => Promise<Storage> }): void {
  describe(`storage conformance, imported data: ${name}`, () => {
    let storage: Storage;
    const dir = mkdtempSync(join(tmpdir(), 'siteline-plausible-test-'));
    const zip = join(dir, 'plaus_example_20260305.zip');
    const report = <E extends EndpointName>(endpoint: E, params: RawParams) => REPORTS[endpoint](storage, parseQuery(endpoint, params));
    const plaus = (params: Record<string, string> = {}) => ({ site_id: 'ST-plaus', from: '2026-03-01', to: '2026-03-04', ...params });
    const filtered = (filters: unknown[], params: Record<string, string> = {}) => plaus({ filters: JSON.stringify(filters), ...params });
    /** Every endpoint's body over the range, as the bytes a client gets. */
    const allBodies = async () => {
      const out: string[] = [];
      for (const endpoint of ENDPOINTS) {
        const extra: Record<string, string> = endpoint === 'properties' ? { name: 'Signup' } : {};
        out.push(JSON.stringify(await report(endpoint, plaus(extra))));
        out.push(JSON.stringify(await report(endpoint, plaus({ ...extra, compare: 'previous_period' }))));
        out.push(JSON.stringify(await report(endpoint, filtered([['is', 'country', ['DE']]], extra))));
      }
      out.push(JSON.stringify(await report('devices', plaus({ breakdown: 'browser' }))));
      return out;
    };
    let before: string[];

    beforeAll(async () => {
      storage = await create();
      writeFileSync(zip, storedZip(PLAUSIBLE_EXPORT));
      await createSite(storage, { id: 'ST-plaus', name: 'Plaus', timezone: 'UTC', domain: 'plaus.example' });
      await addGoal(storage, 'ST-plaus', { type: 'event', value: 'Signup' });
      await importEvents(storage, ndjson(PLAUSIBLE_NATIVE));
      before = await allBodies();
    });
    afterAll(async () => {
      await storage?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('imports the zip: rows read and written, rows left out and why, the day native events overlap', async () => {
      const summary = await importPlausible(storage, zip, { siteId: 'ST-plaus' });
      expect(summary).toEqual({
        importId: expect.stringMatching(/^imp_[a-z0-9]{16}$/), siteId: 'ST-plaus', from: '2026-03-01', to: '2026-03-03',
        rowsRead: 39, rowsWritten: 36, days: 3,
        skipped: [
          { reason: 'custom event "engagement": Plausible\'s own engagement measurement, not a custom event', rows: 1 },
          { reason: 'exit pages: Siteline has no exit-page report (the pages file carries exits for time on page)', rows: 2 },
        ],
        overlapDays: ['2026-03-03'], hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(await storage.listImports!('ST-plaus')).toEqual([{
        id: summary.importId, siteId: 'ST-plaus', source: 'plausible', hash: summary.hash, from: '2026-03-01', to: '2026-03-03', rows: 36,
        partial: [], importedAt: expect.any(String),
      }]);
    });

    it('/stats and /stats/timeseries add the imported days without native events (03-03 counts its native session only)', async () => {
      // Imported 03-01 + 03-02: visitors 3+2, pageviews 5+4, sessions 4+2, bounces 2+1, 420 s; native A + B: 2, 2, 2, 1, 60 s.
      expect(await report('stats', plaus())).toEqual({ visitors: 7, pageviews: 11, sessions: 8, bounce_rate: 50, avg_duration: 60, imported: INCLUDED });
      expect(await report('timeseries', plaus())).toEqual({
        timeseries: [
          { date: '2026-03-01', visitors: 3, pageviews: 5, sessions: 4 },
          { date: '2026-03-02', visitors: 2, pageviews: 4, sessions: 2 },
          { date: '2026-03-03', visitors: 1, pageviews: 1, sessions: 1 },
          { date: '2026-03-04', visitors: 1, pageviews: 1, sessions: 1 },
        ],
        imported: INCLUDED,
      });
      expect(await report('timeseries', plaus({ interval: 'month' }))).toEqual({ timeseries: [{ date: '2026-03', visitors: 7, pageviews: 11, sessions: 8 }], imported: INCLUDED });
    });

    it('/pages: imported pages and entry pages by path; time on page from the export where it has it', async () => {
      // `/`: pageviews 3+2+1, visitors 3+2+1, entries 3+1+1 with 1+1+1 bounces, time 60+40 s over 2+1 views (native `/` is last in A).
      // `/pricing`: 2+1 pageviews, entries 1+1 (1 bounce), only native time: 60 s. `/blog`: 2 pageviews, 1 visitor, 1 entry, 90 s.
      expect(await report('pages', plaus())).toEqual({
        pages: [
          { url: '/', pageviews: 6, visitors: 6, bounce_rate: 60, avg_duration: 33.3 },
          { url: '/pricing', pageviews: 3, visitors: 3, bounce_rate: 50, avg_duration: 60 },
          { url: '/blog', pageviews: 2, visitors: 1, bounce_rate: 0, avg_duration: 90 },
        ],
        imported: INCLUDED,
      });
    });

    it('/referrers, /channels and /campaigns from imported sources (referrer host, channel by our rules)', async () => {
      // Sources: Direct 2/2 (03-01), google.com 1/2, newsletter (no referrer: Direct / None, Email) 2/2; native A google.com, B direct.
      expect(await report('referrers', plaus())).toEqual({
        referrers: [{ source: 'Direct / None', visitors: 5, sessions: 5 }, { source: 'google.com', visitors: 2, sessions: 3 }],
        imported: INCLUDED,
      });
      expect(await report('channels', plaus())).toEqual({
        channels: [
          { channel: 'Direct', visitors: 3, sessions: 3 },
          { channel: 'Organic Search', visitors: 2, sessions: 3 },
          { channel: 'Email', visitors: 2, sessions: 2 },
        ],
        imported: INCLUDED,
      });
      expect(await report('campaigns', plaus())).toEqual({
        campaigns: [{ source: 'newsletter', medium: 'email', campaign: 'spring', visitors: 2, sessions: 2 }],
        imported: INCLUDED,
      });
    });

    it('/locations, /devices (three breakdowns) and /events from their imported tables', async () => {
      // DE 2+1 imported + 2 native; US 1; unknown country 1. Laptop is a desktop; Chrome 1+1 (two versions); Mac is macOS.
      expect(await report('locations', plaus())).toEqual({
        locations: [
          { country: 'Germany', country_code: 'DE', visitors: 5 },
          { country: 'United States', country_code: 'US', visitors: 1 },
          { country: 'Unknown', country_code: 'XX', visitors: 1 },
        ],
        imported: INCLUDED,
      });
      expect(await report('devices', plaus())).toEqual({
        breakdown: 'device_type',
        devices: [{ name: 'Desktop', visitors: 5 }, { name: 'Mobile', visitors: 1 }, { name: 'Tablet', visitors: 1 }],
        imported: INCLUDED,
      });
      expect(await report('devices', plaus({ breakdown: 'browser' }))).toEqual({
        breakdown: 'browser',
        devices: [{ name: 'Firefox', visitors: 4 }, { name: 'Chrome', visitors: 2 }, { name: 'Safari', visitors: 1 }],
        imported: INCLUDED,
      });
      expect(await report('devices', plaus({ breakdown: 'os' }))).toEqual({
        breakdown: 'os',
        devices: [{ name: 'Linux', visitors: 4 }, { name: 'macOS', visitors: 2 }, { name: 'iOS', visitors: 1 }],
        imported: INCLUDED,
      });
      // Outbound Link: Click 1+2 (two link_urls), Signup 1 imported + 1 native; Plausible's engagement rows were left out.
      expect(await report('events', plaus())).toEqual({ events: [{ name: 'Outbound Link: Click', count: 3 }, { name: 'Signup', count: 2 }], imported: INCLUDED });
      expect(await report('events', plaus({ name: 'Signup' }))).toEqual({ events: [{ name: 'Signup', count: 2 }], imported: INCLUDED });
    });

    it('a filter one imported table answers includes that table\'s rows', async () => {
      // country DE from locations: imported v 2+1, s 3+1, b 1+0, 120+300 s, pv 4+3; native A and B.
      expect(await report('stats', filtered([['is', 'country', ['DE']]]))).toEqual({ visitors: 5, pageviews: 9, sessions: 6, bounce_rate: 33.3, avg_duration: 80, imported: INCLUDED });
      expect(await report('timeseries', filtered([['is', 'country', ['DE']]]))).toEqual({
        timeseries: [
          { date: '2026-03-01', visitors: 2, pageviews: 4, sessions: 3 },
          { date: '2026-03-02', visitors: 1, pageviews: 3, sessions: 1 },
          { date: '2026-03-03', visitors: 1, pageviews: 1, sessions: 1 },
          { date: '2026-03-04', visitors: 1, pageviews: 1, sessions: 1 },
        ],
        imported: INCLUDED,
      });
      expect(await report('pages', filtered([['is', 'page', ['/']]]))).toEqual({ pages: [{ url: '/', pageviews: 6, visitors: 6, bounce_rate: 60, avg_duration: 33.3 }], imported: INCLUDED });
      expect(await report('devices', filtered([['is', 'browser', ['Chrome']]], { breakdown: 'browser' }))).toEqual({ breakdown: 'browser', devices: [{ name: 'Chrome', visitors: 2 }], imported: INCLUDED });
      expect(await report('referrers', filtered([['is', 'channel', ['Email']]]))).toEqual({ referrers: [{ source: 'Direct / None', visitors: 2, sessions: 2 }], imported: INCLUDED });
      expect(await report('events', filtered([['is', 'event', ['Signup']]]))).toEqual({ events: [{ name: 'Signup', count: 2 }], imported: INCLUDED });
      expect(await report('stats', filtered([['contains', 'entry_page', ['/b']]]))).toEqual({ visitors: 1, pageviews: 3, sessions: 1, bounce_rate: 0, avg_duration: 300, imported: INCLUDED });
    });

    it('a filter no single imported table answers, goals, properties and funnels leave the imported days out and say why', async () => {
      const note = (reason: string) => ({ included: false, days: 2, reason });
      // Native only: session A is German and viewed `/`.
      expect(await report('stats', filtered([['is', 'country', ['DE']], ['is', 'page', ['/']]]))).toEqual({
        visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 100, avg_duration: 0,
        imported: note('Imported data is daily totals per dimension: no imported table holds country and page together.'),
      });
      expect(await report('pages', filtered([['is', 'country', ['DE']]]))).toEqual({
        pages: [{ url: '/', pageviews: 1, visitors: 1, bounce_rate: 100, avg_duration: 0 }, { url: '/pricing', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 60 }],
        imported: note('Imported pages have no country.'),
      });
      expect(await report('stats', filtered([['is', 'page', ['/pricing']]]))).toEqual({
        visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 0, avg_duration: 60, imported: note('Imported pages have no sessions, bounce rates or visit durations.'),
      });
      expect(await report('devices', filtered([['is', 'browser', ['Chrome']]]))).toEqual({ breakdown: 'device_type', devices: [], imported: note('Imported device types have no browser.') });
      expect(await report('stats', filtered([['is', 'goal', ['Signup']]]))).toMatchObject({ sessions: 1, imported: note('Imported data has no goal to filter by.') });
      expect(await report('timeseries', plaus({ from: '2026-03-01', to: '2026-03-02', interval: 'hour' }))).toMatchObject({ imported: { included: false, days: 2, reason: 'Imported data has daily totals, no hours.' } });
      expect(await report('goals', plaus())).toEqual({
        goals: [{ goal: 'Signup', visitors: 1, conversions: 1, conversion_rate: 50 }], imported: note('Goals are computed from events; imported data has none.'),
      });
      expect(await report('properties', plaus({ name: 'Signup' }))).toEqual({ name: 'Signup', properties: [], imported: note('Imported data has no event properties.') });
      if (storage.capabilities?.funnels) {
        // Native only: B viewed /pricing then signed up; the visitors (A and B) are the native ones the rates are over.
        const reached = { dropoff: 0, dropoff_rate: 0, conversion_rate: 100, conversion_rate_step: 100 };
        expect(await report('funnels', plaus({ steps: '[{"page":"/pricing"},{"event":"Signup"}]' }))).toEqual({
          funnel: null, visitors: 2,
          steps: [{ step: 'Visit /pricing', visitors: 1, ...reached }, { step: 'Signup', visitors: 1, ...reached }],
          imported: note("Funnels follow each session's events in order; imported data has daily totals, no sessions."),
        });
      }
    });

    it('imported=exclude leaves the imported days out on request; ranges without counting imported days keep their bodies', async () => {
      expect(await report('stats', plaus({ imported: 'exclude' }))).toEqual({
        visitors: 2, pageviews: 2, sessions: 2, bounce_rate: 50, avg_duration: 30, imported: { included: false, days: 2, reason: 'Left out on request (imported=exclude).' },
      });
      // 03-04 and its previous period 03-03: the import covers 03-03, but native events win there, so no imported day counts.
      expect(await report('stats', plaus({ from: '2026-03-04', to: '2026-03-04', compare: 'previous_period' }))).toEqual({
        visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 0, avg_duration: 60,
        comparison: { from: '2026-03-03', to: '2026-03-03', visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 100, avg_duration: 0 },
      });
      expect(await report('stats', plaus({ from: '2026-03-02', to: '2026-03-02', compare: 'previous_period' }))).toEqual({
        visitors: 2, pageviews: 4, sessions: 2, bounce_rate: 50, avg_duration: 150,
        comparison: { from: '2026-03-01', to: '2026-03-01', visitors: 3, pageviews: 5, sessions: 4, bounce_rate: 50, avg_duration: 30 },
        imported: { included: true, days: 1 },
      });
    });

    it('refuses the same export a second time; deleting the import gives back every body byte for byte, and it can be imported again', async () => {
      await expect(importPlausible(storage, zip, { siteId: 'ST-plaus' })).rejects.toBeInstanceOf(DuplicateImportError);
      const [dataset] = await storage.listImports!('ST-plaus');
      expect(await storage.deleteImport!('ST-plaus', 'imp_nosuchimport00')).toBe(false);
      expect(await storage.deleteImport!('ST-plaus', dataset!.id)).toBe(true);
      expect(await storage.listImports!('ST-plaus')).toEqual([]);
      expect(await allBodies()).toEqual(before);
      const again = await importPlausible(storage, zip, { siteId: 'ST-plaus' });
      expect(again.importId).not.toBe(dataset!.id);
      expect(await report('stats', plaus())).toMatchObject({ visitors: 7, pageviews: 11 });
    });

    it('reads the older column sets: time on page from exits, a source without referrer by its name, no pageviews per source', async () => {
      await createSite(storage, { id: 'ST-legacy', name: 'Legacy', timezone: 'UTC' });
      const legacy = join(dir, 'legacy');
      rmSync(legacy, { recursive: true, force: true });
      writeFileSync(join(dir, 'legacy.zip'), storedZip(PLAUSIBLE_LEGACY));
      const summary = await importPlausible(storage, join(dir, 'legacy.zip'), { siteId: 'ST-legacy' });
      expect(summary).toMatchObject({ rowsRead: 4, rowsWritten: 4, days: 1, skipped: [], overlapDays: [] });
      expect((await storage.listImports!('ST-legacy'))[0]!.partial).toEqual(['sources', 'browsers']);
      const day = { site_id: 'ST-legacy', from: '2026-02-01', to: '2026-02-01' };
      const one = { included: true, days: 1 };
      expect(await report('stats', day)).toEqual({ visitors: 2, pageviews: 4, sessions: 2, bounce_rate: 0, avg_duration: 45, imported: one });
      expect(await report('pages', day)).toEqual({ pages: [{ url: '/', pageviews: 4, visitors: 2, bounce_rate: 0, avg_duration: 30 }], imported: one });
      expect(await report('referrers', day)).toEqual({ referrers: [{ source: 'Google', visitors: 2, sessions: 2 }], imported: one });
      // The channel from the name, as the rules read a utm_source: the source list knows `google` as a search engine.
      expect(await report('channels', day)).toEqual({ channels: [{ channel: 'Organic Search', visitors: 2, sessions: 2 }], imported: one });
      expect(await report('stats', { ...day, filters: '[["is","browser",["Chrome"]]]' })).toEqual({
        visitors: 0, pageviews: 0, sessions: 0, bounce_rate: 0, avg_duration: 0, imported: { included: false, days: 1, reason: 'An imported export has no pageviews per browser.' },
      });
    });

    it('rejects an export with bad rows as a whole, naming each file and line', async () => {
      await createSite(storage, { id: 'ST-badplaus', name: 'Bad', timezone: 'UTC' });
      const bad = join(dir, 'bad.zip');
      writeFileSync(bad, storedZip({
        'imported_visitors_20260301_20260302.csv': 'date,visitors,pageviews,bounces,visits,visit_duration\n2026-03-01,1,1,1,1,0\n2026-03-01,x,1,1,1,0\n2026-04-01,1,1,1,1,0\n',
        'imported_pages_20260301_20260302.csv': 'date,hostname,page\n2026-03-01,a,/\n',
        'notes.txt': 'hello',
      }));
      const error = await importPlausible(storage, bad, { siteId: 'ST-badplaus' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ImportError);
      expect((error as ImportError).lineErrors).toEqual([
        { file: 'imported_pages_20260301_20260302.csv', line: 1, reason: 'missing columns visitors, pageviews' },
        { file: 'imported_visitors_20260301_20260302.csv', line: 3, reason: 'visitors must be a whole number >= 0, got "x"' },
        { file: 'imported_visitors_20260301_20260302.csv', line: 4, reason: "date 2026-04-01 is outside the file's range 2026-03-01 to 2026-03-02" },
        { file: 'notes.txt', line: 0, reason: 'not a file of a Plausible export (imported_<table>_<YYYYMMDD>_<YYYYMMDD>.csv)' },
      ]);
      expect(await storage.listImports!('ST-badplaus')).toEqual([]);
      expect(await report('stats', { site_id: 'ST-badplaus', from: '2026-03-01', to: '2026-03-02' })).toEqual({ visitors: 0, pageviews: 0, sessions: 0, bounce_rate: 0, avg_duration: 0 });
    });
  });
}
