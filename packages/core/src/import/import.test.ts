import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DuplicateImportError, ImportError } from '../errors.js';
import { PROPS_MESSAGES } from '../props/props.js';
import { parseQuery } from '../query/parse.js';
import { REPORTS } from '../reports/index.js';
import { createSite } from '../sites/sites.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import type { Storage } from '../storage/types.js';
import { ndjson } from '../testing/datasets.js';
import { MAX_LINE_LENGTH } from './line-schema.js';
import { importEvents } from './import.js';

const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const dir = mkdtempSync(join(tmpdir(), 'siteline-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('importEvents', () => {
  let storage: Storage;
  let n = 0;
  const range = { site_id: 'ST-s', from: '2026-11-02', to: '2026-11-02' };
  const run = <E extends 'stats' | 'pages' | 'referrers' | 'channels' | 'devices' | 'locations' | 'campaigns'>(e: E) =>
    REPORTS[e](storage, parseQuery(e, range));

  beforeEach(async () => {
    storage = createSqliteStorage(join(dir, `import-${++n}.db`));
    await createSite(storage, { id: 'ST-s', name: 'S', domain: 'shop.example' });
  });

  it('derives path, campaign, referrer, channel, device and country from raw inputs', async () => {
    const summary = await importEvents(storage, ndjson([
      { site_id: 'ST-s', ts: '2026-11-02T10:00:00Z', type: 'pageview', url: 'https://shop.example/shoes/?utm_source=fb&utm_medium=paid_social&utm_campaign=bf#top', referrer: 'https://WWW.Facebook.com/', ip: '8.8.8.8', user_agent: CHROME_MAC },
      { site_id: 'ST-s', ts: '2026-11-02T10:00:05+01:00', type: 'pageview', url: '/cart', ip: '8.8.8.8', user_agent: CHROME_MAC },
    ]));
    expect(summary).toMatchObject({ events: 2, pageviews: 2, customEvents: 0, sessions: 2, sites: ['ST-s'] });
    // 10:00:05+01:00 is 09:00:05Z: an hour earlier, so a session of its own (same derived visitor).
    expect(await run('pages')).toMatchObject({ pages: [{ url: '/cart', pageviews: 1 }, { url: '/shoes/', pageviews: 1 }] });
    expect(await run('stats')).toEqual({ visitors: 1, pageviews: 2, sessions: 2, bounce_rate: 100, avg_duration: 0 });
    expect(await run('referrers')).toEqual({ referrers: [
      { source: 'Direct / None', visitors: 1, sessions: 1 },
      { source: 'facebook.com', visitors: 1, sessions: 1 },
    ] });
    expect(await run('channels')).toEqual({ channels: [
      { channel: 'Direct', visitors: 1, sessions: 1 },
      { channel: 'Paid Social', visitors: 1, sessions: 1 },
    ] });
    expect(await run('campaigns')).toEqual({ campaigns: [{ source: 'fb', medium: 'paid_social', campaign: 'bf', visitors: 1, sessions: 1 }] });
    expect(await run('devices')).toEqual({ breakdown: 'device_type', devices: [{ name: 'Desktop', visitors: 1 }] });
    expect(await run('locations')).toEqual({ locations: [{ country: 'United States', country_code: 'US', visitors: 1 }] });
  });

  it('never stores the IP address or the user agent', async () => {
    const file = join(dir, 'private.db');
    const private_ = createSqliteStorage(file);
    await createSite(private_, { id: 'ST-s', name: 'S' });
    await importEvents(private_, ndjson([{ site_id: 'ST-s', ts: '2026-11-02T10:00:00Z', type: 'pageview', url: '/', ip: '203.0.113.77', user_agent: 'UniqueAgent/9.9' }]));
    await private_.close();
    const bytes = readFileSync(file).toString('latin1');
    expect(bytes).not.toContain('203.0.113.77');
    expect(bytes).not.toContain('UniqueAgent');
  });

  it('sessions: a gap of exactly 30 minutes continues, one second more starts a new one', async () => {
    await importEvents(storage, ndjson([
      { site_id: 'ST-s', ts: '2026-11-02T10:00:00Z', type: 'pageview', visitor_id: 'a', url: '/1' },
      { site_id: 'ST-s', ts: '2026-11-02T10:30:00Z', type: 'pageview', visitor_id: 'a', url: '/2' },
      { site_id: 'ST-s', ts: '2026-11-02T11:00:01Z', type: 'pageview', visitor_id: 'a', url: '/3' },
    ]));
    expect(await run('stats')).toEqual({ visitors: 1, pageviews: 3, sessions: 2, bounce_rate: 50, avg_duration: 900 });
  });

  it('all or nothing: reports every bad line with its reason and stores nothing', async () => {
    const lines = [
      JSON.stringify({ site_id: 'ST-s', ts: '2026-11-02T10:00:00Z', type: 'pageview', url: '/' }),
      '{not json',
      JSON.stringify({ site_id: 'ST-s', ts: '2026-11-02 10:00', type: 'pageview', url: '/' }),
      '',
      JSON.stringify({ site_id: 'ST-s', ts: '2026-11-02T10:00:00Z', type: 'event' }),
      JSON.stringify({ site_id: 'ST-zz', ts: '2026-11-02T10:00:00Z', type: 'pageview', url: '/' }),
      JSON.stringify({ site_id: 'ST-s', ts: '2026-11-02T10:00:00Z', type: 'click', url: '/' }),
      JSON.stringify({ site_id: 'ST-s', type: 'pageview', url: '/' }),
      JSON.stringify({ site_id: 'ST-s', ts: '2026-11-02T10:00:00Z', type: 'pageview', url: '/', country_code: 'Germany' }),
      '[1,2]',
    ];
    const error = await importEvents(storage, lines.join('\n')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).message).toBe('8 invalid lines; nothing was imported.');
    expect((error as ImportError).lineErrors).toEqual([
      { line: 2, reason: 'not valid JSON' },
      { line: 3, reason: 'ts must be an ISO 8601 instant with a zone, e.g. 2026-11-01T10:00:00Z' },
      { line: 5, reason: 'name is required for type "event"' },
      { line: 6, reason: 'site_id ST-zz does not exist' },
      { line: 7, reason: 'type must be "pageview" or "event"' },
      { line: 8, reason: 'ts is required' },
      { line: 9, reason: 'country_code must be an ISO 3166-1 alpha-2 code such as DE' },
      { line: 10, reason: 'not a JSON object' },
    ]);
    expect(await run('stats')).toMatchObject({ pageviews: 0, sessions: 0 });
    // Fixed, the same file imports.
    await importEvents(storage, lines[0]!);
    expect(await run('stats')).toMatchObject({ pageviews: 1 });
  });

  it('reports the first 100 bad lines and counts them all', async () => {
    const error = (await importEvents(storage, Array.from({ length: 150 }, () => '{}')).catch((e: unknown) => e)) as ImportError;
    expect(error.badLines).toBe(150);
    expect(error.lineErrors).toHaveLength(100);
    expect(error.lineErrors[99]).toEqual({ line: 100, reason: 'site_id is required' });
  });

  it('reads a stream, and refuses the same data twice', async () => {
    const text = ndjson([{ site_id: 'ST-s', ts: '2026-11-02T10:00:00Z', type: 'pageview', visitor_id: 'a', url: '/' }]);
    await importEvents(storage, Readable.from([`${text}\r\n`]));
    await expect(importEvents(storage, text)).rejects.toBeInstanceOf(DuplicateImportError);
    expect(await run('stats')).toMatchObject({ pageviews: 1, sessions: 1 });
  });

  it('props: stored exactly on custom events; a bad one rejects the file with its line number; a pageview\'s are ignored', async () => {
    const at = (minute: number) => `2026-11-02T10:0${minute}:00Z`;
    const event = (minute: number, props: unknown) => ({ site_id: 'ST-s', ts: at(minute), type: 'event', name: 'Signup', url: '/', visitor_id: 'v', props });
    const bad = await importEvents(storage, ndjson([
      event(0, { plan: 'pro' }),
      event(1, ['pro']),
      event(2, { plan: { tier: 'pro' } }),
      // A pageview's props are accepted and ignored, whatever they are: no pageview is lost to them.
      { site_id: 'ST-s', ts: at(3), type: 'pageview', url: '/', visitor_id: 'v', props: 'not an object' },
      event(4, Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, 1]))),
    ])).catch((e: unknown) => e) as ImportError;
    expect(bad).toBeInstanceOf(ImportError);
    expect(bad.lineErrors).toEqual([
      { line: 2, reason: PROPS_MESSAGES.shape },
      { line: 3, reason: PROPS_MESSAGES.entry },
      { line: 5, reason: PROPS_MESSAGES.shape },
    ]);
    expect(await run('stats')).toMatchObject({ pageviews: 0 }); // nothing stored
    await importEvents(storage, ndjson([
      event(0, { ' Plan ': 'Pro ', seats: 3, trial: true, coupon: null, note: '' }),
      { site_id: 'ST-s', ts: at(1), type: 'pageview', url: '/', visitor_id: 'v', props: { plan: 'free' } },
      event(2, null),
    ]));
    expect(await REPORTS.properties(storage, parseQuery('properties', { ...range, name: 'Signup' }))).toEqual({
      name: 'Signup',
      properties: [
        { property: ' Plan ', count: 1, visitors: 1 },
        { property: 'seats', count: 1, visitors: 1 },
        { property: 'trial', count: 1, visitors: 1 },
      ],
    });
    expect(await REPORTS.properties(storage, parseQuery('properties', { ...range, name: 'Signup', property: 'seats' }))).toMatchObject({ values: [{ value: '3' }] });
    expect(await run('stats')).toMatchObject({ pageviews: 1 });
  });

  it('rejects oversized lines', async () => {
    // The bound leaves room for the event's fields and the largest props: 16,384 + 30 x (300 + 2,000 + 6).
    expect(MAX_LINE_LENGTH).toBe(85_564);
    const line = JSON.stringify({ site_id: 'ST-s', ts: '2026-11-02T10:00:00Z', type: 'pageview', url: `/${'a'.repeat(90_000)}` });
    const error = (await importEvents(storage, line).catch((e: unknown) => e)) as ImportError;
    expect(error.lineErrors).toEqual([{ line: 1, reason: 'line is longer than 85564 characters' }]);
  });
});
