/**
 * Late and out-of-order events under filters (used only by tests, from
 * `adapterCases`: one server, two shards, chdb). The filter layout of schema
 * version 6 keeps each session's attributes (its first event's), its paths
 * and names, and each pageview's time on page as stored state; these cases
 * write one session in pieces, its true first event last, and check every
 * filter against numbers worked out by hand below and against the SQLite
 * store fed the same writes.
 */
import { createSite, createSqliteStorage, parseQuery, REPORTS, type RawParams, type Storage, type StoredEvent } from '@siteline/core';
// The collector's batching itself (not exported by @siteline/http): what turns accepted beacons into writeEvents calls.
import { BatchWriter } from '../../../http/src/collect/batch-writer.js';
import { expect, it } from 'vitest';

let seq = 1_000;
const ev = (siteId: string, sessionId: string, time: string, path: string, stamped: Partial<StoredEvent>): StoredEvent => ({
  siteId, sessionId, visitorId: `v-${sessionId}`, ts: Date.parse(`2026-11-02T${time}Z`), day: '2026-11-02', type: 'pageview', name: '', path, seq: ++seq,
  entryPath: '/b', referrerSource: 'a.example', channel: 'Referral', utmSource: '', utmMedium: '', utmCampaign: '',
  countryCode: 'DE', deviceType: 'Desktop', browser: 'Firefox', os: 'Linux', ...stamped,
});

/**
 * Session L, in the order it is written: 10:00 `/b` and 10:20 `/c` (stamped as
 * the collector first saw it: DE, a.example, entry `/b`); then 10:10 event
 * `signup` and 10:05 `/x` (inside the stored span); last its true first
 * event, 09:50 `/a` from AT via b.example (entry `/a`). So L is AT, b.example,
 * entry `/a`, 09:50..10:20 = 1800 s, 4 pageviews; time on page: `/a` 600 s
 * (to 10:00), `/b` 300 s (to 10:05), `/x` 300 s (to 10:10), `/c` none.
 * Session M: 11:00 `/b`, DE, a.example: a bounce.
 */
function writes(siteId: string): StoredEvent[][] {
  const l = (time: string, path: string, stamped: Partial<StoredEvent> = {}) => ev(siteId, 'L', time, path, stamped);
  return [
    [l('10:00:00', '/b'), l('10:20:00', '/c')],
    [l('10:10:00', '/b', { type: 'event', name: 'signup' }), l('10:05:00', '/x'), ev(siteId, 'M', '11:00:00', '/b', {})],
    [l('09:50:00', '/a', { countryCode: 'AT', referrerSource: 'b.example', entryPath: '/a' })],
  ];
}

const day = { from: '2026-11-02', to: '2026-11-02' };
const filter = (...conditions: [string, string, string[]][]) => ({ filters: JSON.stringify(conditions) });
const ask = (store: Storage, endpoint: keyof typeof REPORTS, params: RawParams) => REPORTS[endpoint](store, parseQuery(endpoint, params));

/** Every endpoint under these filters must equal the SQLite store's answer. */
const FILTERS = [
  filter(['is', 'country', ['AT']]),
  filter(['is', 'country', ['DE']]),
  filter(['is', 'source', ['b.example']]),
  filter(['is', 'entry_page', ['/a']]),
  filter(['is', 'page', ['/a']]),
  filter(['is', 'page', ['/b']]),
  filter(['contains', 'page', ['/x']], ['is', 'country', ['AT']]),
  filter(['is', 'event', ['signup']]),
  filter(['is_not', 'page', ['/b']]),
];
const ENDPOINTS = ['stats', 'timeseries', 'pages', 'referrers', 'locations', 'events'] as const;

async function expectExact(store: Storage, sqlite: Storage, siteId: string): Promise<void> {
  const site = { site_id: siteId, ...day };
  // L alone: AT (its first event's country, written last), 1800 s, 4 pageviews.
  expect(await ask(store, 'stats', { ...site, ...filter(['is', 'country', ['AT']]) }))
    .toEqual({ visitors: 1, pageviews: 4, sessions: 1, bounce_rate: 0, avg_duration: 1800 });
  // M alone: the events of L stamped DE do not make L a DE session.
  expect(await ask(store, 'stats', { ...site, ...filter(['is', 'country', ['DE']]) }))
    .toEqual({ visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 100, avg_duration: 0 });
  // L has a pageview of /a (its late first event): its /a pageview is selected, 600 s to 10:00.
  expect(await ask(store, 'pages', { ...site, ...filter(['is', 'page', ['/a']]) }))
    .toEqual({ pages: [{ url: '/a', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 600 }] });
  // /x was written inside L's stored span: its gap (300 s) and the one it split from /b (1200 s -> 300 s).
  expect(await ask(store, 'pages', { ...site, ...filter(['is', 'country', ['AT']]) })).toEqual({
    pages: [
      { url: '/a', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 600 },
      { url: '/b', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 300 },
      { url: '/c', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 0 },
      { url: '/x', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 300 },
    ],
  });
  for (const f of FILTERS) {
    for (const endpoint of ENDPOINTS) expect([endpoint, f, await ask(store, endpoint, { ...site, ...f })]).toEqual([endpoint, f, await ask(sqlite, endpoint, { ...site, ...f })]);
  }
}

/**
 * Custom events under a page condition, of sessions crossing the ends of the
 * range 11-02..11-03 (UTC), each written in pieces (schema version 8 reads
 * the sessions wholly inside the range from their `name_counts`, and the
 * events of crossing sessions from their rows):
 * - P crosses the start: 11-02 00:05 `signup`, 00:10 `buy` written first
 *   (DE), then its true start 11-01 23:50 `/pricing` (AT) and 23:55
 *   `signup`. In the range: signup 1, buy 1. P is AT.
 * - Q lies inside: 11-02 10:00 `/pricing`, 10:02 `signup`; then 10:01
 *   `signup` (inside the stored span) and 10:03 `download`: signup 2,
 *   download 1. DE.
 * - R crosses the end: 11-03 23:50 `/pricing`, 23:55 `signup`; then 11-04
 *   00:05 `signup`: signup 1 in the range. DE.
 * - S (11-02 12:00 `/home`, 12:01 `signup`) and T (11-01 23:58 `/home`,
 *   11-02 00:01 `signup`) have no `/pricing` pageview.
 * Under `page is /pricing`: signup 1 + 2 + 1 = 4, buy 1, download 1; adding
 * `country is AT`: P alone, buy 1, signup 1 (a tie: by name).
 */
function crossingWrites(siteId: string): StoredEvent[][] {
  const at = (sessionId: string, when: string, path: string, stamped: Partial<StoredEvent> = {}) =>
    ({ ...ev(siteId, sessionId, '00:00:00', path, stamped), ts: Date.parse(`2026-${when}Z`), day: `2026-${when.slice(0, 5)}` });
  const event = (name: string, more: Partial<StoredEvent> = {}) => ({ type: 'event' as const, name, ...more });
  const austria = { countryCode: 'AT', entryPath: '/pricing' };
  return [
    [at('P', '11-02T00:05:00', '/pricing', event('signup')), at('P', '11-02T00:10:00', '/pricing', event('buy')), at('Q', '11-02T10:00:00', '/pricing'),
      at('Q', '11-02T10:02:00', '/pricing', event('signup')), at('R', '11-03T23:50:00', '/pricing'), at('R', '11-03T23:55:00', '/pricing', event('signup'))],
    [at('Q', '11-02T10:01:00', '/pricing', event('signup')), at('Q', '11-02T10:03:00', '/pricing', event('download')), at('R', '11-04T00:05:00', '/pricing', event('signup')),
      at('S', '11-02T12:00:00', '/home'), at('S', '11-02T12:01:00', '/home', event('signup')), at('T', '11-01T23:58:00', '/home'), at('T', '11-02T00:01:00', '/home', event('signup'))],
    [at('P', '11-01T23:50:00', '/pricing', austria), at('P', '11-01T23:55:00', '/pricing', event('signup', austria))],
  ];
}

/** Registers the cases on `storage()` (the migrated store of the current file). */
export function lateEventCases(storage: () => Storage): void {
  it('filters see a session as its first event made it, when that event arrives last (import writes)', async () => {
    const sqlite = createSqliteStorage(':memory:');
    for (const store of [storage(), sqlite]) {
      await createSite(store, { id: 'ST-late', name: 'Late', timezone: 'UTC' });
      let n = 0;
      for (const batch of writes('ST-late')) await store.writeEvents(batch, { hash: `late-${++n}`, events: batch.length, importedAt: '2026-11-03T00:00:00Z' });
    }
    await expectExact(storage(), sqlite, 'ST-late');
    await sqlite.close();
  });

  it('the same through the collector\'s group commits, two events per write, in arrival order', async () => {
    const sqlite = createSqliteStorage(':memory:');
    for (const store of [storage(), sqlite]) {
      await createSite(store, { id: 'ST-latec', name: 'Late, collected', timezone: 'UTC' });
      const writer = new BatchWriter(store, { maxEvents: 2, maxDelayMs: 10 });
      const kept = writes('ST-latec').flat().map((e) => writer.write([e]));
      await writer.flush();
      expect(await Promise.all(kept)).toEqual(kept.map(() => true));
    }
    await expectExact(storage(), sqlite, 'ST-latec');
    await sqlite.close();
  });

  it('custom events under a page condition count the events in the range of sessions inside it and crossing its ends, written out of order', async () => {
    const sqlite = createSqliteStorage(':memory:');
    for (const store of [storage(), sqlite]) {
      await createSite(store, { id: 'ST-cross', name: 'Crossing', timezone: 'UTC' });
      let n = 0;
      for (const batch of crossingWrites('ST-cross')) await store.writeEvents(batch, { hash: `cross-${++n}`, events: batch.length, importedAt: '2026-11-05T00:00:00Z' });
    }
    const range = { site_id: 'ST-cross', from: '2026-11-02', to: '2026-11-03' };
    const pricing = ['is', 'page', ['/pricing']] as [string, string, string[]];
    expect(await ask(storage(), 'events', { ...range, ...filter(pricing) }))
      .toEqual({ events: [{ name: 'signup', count: 4 }, { name: 'buy', count: 1 }, { name: 'download', count: 1 }] });
    expect(await ask(storage(), 'events', { ...range, ...filter(pricing, ['is', 'country', ['AT']]) }))
      .toEqual({ events: [{ name: 'buy', count: 1 }, { name: 'signup', count: 1 }] }); // a tie: by name
    const more = [
      filter(pricing, ['is', 'event', ['signup']]), filter(['is_not', 'page', ['/home']]), filter(['contains', 'page', ['/pri']], ['is', 'country', ['DE']]),
      filter(pricing, ['is_not', 'country', ['AT']]),
    ];
    for (const f of more) for (const r of [range, { ...range, to: '2026-11-02' }, { ...range, from: '2026-11-03' }, { ...range, from: '2026-11-01', to: '2026-11-04' }]) {
      expect([f, r, await ask(storage(), 'events', { ...r, ...f })]).toEqual([f, r, await ask(sqlite, 'events', { ...r, ...f })]);
    }
    await sqlite.close();
  });
}
