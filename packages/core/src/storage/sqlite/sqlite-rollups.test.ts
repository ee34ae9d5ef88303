import { afterEach, describe, expect, it } from 'vitest';
import { demoNdjson } from '../../demo/index.js';
import { importEvents } from '../../import/import.js';
import { parseQuery } from '../../query/parse.js';
import { REPORTS } from '../../reports/index.js';
import { createSite } from '../../sites/sites.js';
import type { EndpointName } from '../../types.js';
import type { Storage } from '../types.js';
import { createQueries } from './sqlite-queries.js';
import { createSqliteStore } from './sqlite-storage.js';

type Sqlite = ReturnType<typeof createSqliteStore>;

const NOW = Date.parse('2026-11-05T15:00:00Z');
const SITES = [
  { id: 'ST-berlin', name: 'Berlin', timezone: 'Europe/Berlin', domain: 'berlin.example' },
  { id: 'ST-ny', name: 'New York', timezone: 'America/New_York', domain: 'ny.example' },
];

/** The same store answering from raw rows only: the definitions the rollups must reproduce. */
function rawOnly(store: Sqlite): Storage {
  const q = createQueries(store.db);
  return {
    ...store,
    summary: async (r) => q.summary(r),
    timeseries: async (r) => q.timeseries(r),
    sessionBreakdown: async (r, d) => q.sessionBreakdown(r, d),
    pages: async (r) => q.pages(r),
    customEvents: async (r, name) => q.customEvents(r, name),
  };
}

/** Every endpoint (and variant) over a few ranges, as JSON. */
async function answers(storage: Storage, siteId: string): Promise<string[]> {
  type Params = Record<string, string>;
  const ranges: Params[] = [{ period: '30d' }, { period: '7d' }, { period: '1d' }, { from: '2026-11-01', to: '2026-11-03' }, { from: '2026-11-04', to: '2026-11-04' }];
  const variants: [EndpointName, Params][] = [
    ['stats', {}], ['timeseries', {}], ['pages', { limit: '100' }], ['referrers', { limit: '100' }], ['channels', {}], ['locations', {}],
    ['devices', {}], ['devices', { breakdown: 'browser' }], ['devices', { breakdown: 'os' }], ['events', {}], ['events', { name: 'signup' }],
    ['campaigns', {}], ['live', {}],
  ];
  const out: string[] = [];
  for (const range of ranges) {
    for (const [endpoint, params] of variants) {
      const body = await REPORTS[endpoint](storage, parseQuery(endpoint, { site_id: siteId, ...range, ...params }), { now: NOW });
      out.push(`${endpoint} ${JSON.stringify(range)} ${JSON.stringify(params)} ${JSON.stringify(body)}`);
    }
  }
  return out;
}

const open: Sqlite[] = [];
async function store(now = NOW): Promise<Sqlite> {
  const s = createSqliteStore(':memory:', { now: () => now });
  open.push(s);
  for (const site of SITES) await createSite(s, site);
  return s;
}
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

const json = (line: object) => JSON.stringify(line);
const daysIn = (table: 'dirty_days' | 'live_days') => (s: Sqlite, siteId: string) =>
  s.db.prepare(`SELECT day FROM ${table} WHERE site_id = ? ORDER BY day`).pluck().all(siteId) as string[];
const dirtyDays = daysIn('dirty_days');
const liveDays = daysIn('live_days');

/** Six days of generated traffic of both sites, up to NOW. */
function traffic(): string[] {
  return SITES.flatMap((site, i) => [
    ...demoNdjson({ siteId: site.id, days: 6, pageviewsPerDay: 80, seed: 3 + i, end: NOW, timezone: site.timezone, domain: site.domain }),
  ]);
}

describe('SQLite rollups', () => {
  it('give the same JSON as the raw rows for every endpoint', async () => {
    const s = await store();
    await importEvents(s, traffic());
    // Every day was rebuilt at the end of the import, today (hot) as a live day.
    expect(dirtyDays(s, 'ST-berlin')).toEqual([]);
    expect(liveDays(s, 'ST-berlin')).toEqual(['2026-11-05']);
    expect(s.db.prepare('SELECT COUNT(*) FROM rollup_pages').pluck().get()).toBeGreaterThan(0);
    for (const site of SITES) expect(await answers(s, site.id)).toEqual(await answers(rawOnly(s), site.id));
  });

  it('a rebuild with too little memory for its groups lets SQLite sum them: the same rollup rows', async () => {
    const rows = (s: Sqlite) =>
      ['rollup_days', 'rollup_sessions', 'rollup_pages', 'rollup_events'].map((table) => s.db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2, 3, 4`).raw().all());
    const filled = async (rebuildMemoryBytes?: number) => {
      const s = createSqliteStore(':memory:', { now: () => NOW, rebuildMemoryBytes });
      open.push(s);
      for (const site of SITES) await createSite(s, site);
      await importEvents(s, traffic(), { salt: () => 'fixed' });
      return s;
    };
    const expected = rows(await filled());
    expect(expected.map((table) => table.length)).toEqual([expect.any(Number), expect.any(Number), expect.any(Number), expect.any(Number)]);
    expect(Math.min(...expected.map((table) => table.length))).toBeGreaterThan(0);
    // 1 byte: every table summed by SQL; 2-8 KB: some in memory, the largest (pages, entry pages, referrers) by SQL.
    for (const budget of [1, 2_000, 8_000]) {
      const s = await filled(budget);
      expect(rows(s)).toEqual(expected);
      for (const site of SITES) expect(await answers(s, site.id)).toEqual(await answers(rawOnly(s), site.id));
    }
  });

  it('rebuilt days that receive late events match a fresh store with the same events', async () => {
    const v = { site_id: 'ST-berlin', visitor_id: 'late' };
    const first = [
      { ...v, session_id: 'moves', ts: '2026-11-02T10:00:00Z', type: 'pageview', url: '/b', referrer: 'https://a.example/' },
      { ...v, session_id: 'moves', ts: '2026-11-02T10:10:00Z', type: 'pageview', url: '/c' },
      // 23:50 local on 11-03, a bounce so far.
      { ...v, session_id: 'spans', ts: '2026-11-03T22:50:00Z', type: 'pageview', url: '/d' },
    ];
    const late = [
      // Older than the session's first event and on the previous local day: the session moves from 11-02 to 11-01.
      [{ ...v, session_id: 'moves', ts: '2026-10-31T23:30:00Z', type: 'pageview', url: '/a', referrer: 'https://www.google.com/' }],
      // 00:10 local on 11-04: extends a session of 11-03, which is no bounce any more and lasts 20 minutes.
      [{ ...v, session_id: 'spans', ts: '2026-11-03T23:10:00Z', type: 'event', name: 'signup', url: '/d' }],
    ];
    const lines = traffic();
    const s = await store();
    await importEvents(s, [...lines, ...first.map(json)]);
    expect(dirtyDays(s, 'ST-berlin')).toEqual([]);
    for (const batch of late) await importEvents(s, batch.map(json));
    const fresh = await store();
    await importEvents(fresh, [...lines, ...[...first, ...late.flat()].map(json)]);
    expect(await answers(s, 'ST-berlin')).toEqual(await answers(fresh, 'ST-berlin'));
    expect(await answers(s, 'ST-berlin')).toEqual(await answers(rawOnly(s), 'ST-berlin'));
    const day = (d: string) => ({ site_id: 'ST-berlin', from: d, to: d });
    expect(await REPORTS.referrers(s, parseQuery('referrers', day('2026-11-01')))).toMatchObject({
      referrers: expect.arrayContaining([{ source: 'google.com', visitors: 1, sessions: 1 }]),
    });
    expect(await REPORTS.referrers(s, parseQuery('referrers', day('2026-11-02')))).not.toMatchObject({
      referrers: expect.arrayContaining([{ source: 'a.example', visitors: 1, sessions: 1 }]),
    });
  });

  it('small writes keep a live day exact and make other days dirty until a read rebuilds them', async () => {
    // Explicit session ids, so sessions continue across writes; some lines arrive late.
    const lines = traffic().map((text) => {
      const line = JSON.parse(text) as { visitor_id: string; ts: string };
      return { ...line, session_id: `${line.visitor_id}-${Math.floor(Date.parse(line.ts) / 7_200_000)}` };
    });
    const cut = NOW - 3 * 3_600_000;
    const head = lines.filter((l) => Date.parse(l.ts) < cut);
    const tail = lines.filter((l) => Date.parse(l.ts) >= cut);
    const inOrder = tail.filter((_, i) => i % 17 !== 5);
    const late = tail.filter((_, i) => i % 17 === 5);
    // A pageview for a past day, written the collector's way.
    const past = { site_id: 'ST-ny', ts: '2026-11-03T12:00:00Z', type: 'pageview', url: '/new', visitor_id: 'nv', session_id: 'ns' };
    const s = await store();
    await importEvents(s, head.map(json));
    expect(liveDays(s, 'ST-ny')).toEqual(['2026-11-05']);
    const write = async (list: object[]) => {
      for (let i = 0; i < list.length; i += 3) await importEvents(s, list.slice(i, i + 3).map(json));
    };
    await write(inOrder);
    expect(liveDays(s, 'ST-ny')).toEqual(['2026-11-05']);
    expect(dirtyDays(s, 'ST-ny')).toEqual([]);
    for (const site of SITES) expect(await answers(s, site.id)).toEqual(await answers(rawOnly(s), site.id));
    // Late events make their sessions' days dirty; a read rebuilds them.
    await write(late);
    await importEvents(s, [json(past)]);
    const fresh = await store();
    await importEvents(fresh, [...head, ...inOrder, ...late, past].map(json));
    for (const site of SITES) {
      expect(await answers(s, site.id)).toEqual(await answers(fresh, site.id));
      expect(await answers(s, site.id)).toEqual(await answers(rawOnly(s), site.id));
    }
  });

  it('a write smaller than an import leaves a past day dirty until a read rebuilds it', async () => {
    const s = await store();
    await importEvents(s, traffic());
    const event = {
      siteId: 'ST-ny', ts: Date.parse('2026-11-03T12:00:00Z'), day: '2026-11-03', type: 'pageview' as const, name: '', path: '/new',
      visitorId: 'nv', sessionId: 'ns', seq: 1, entryPath: '/new', referrerSource: 'Direct / None', channel: 'Direct',
      utmSource: '', utmMedium: '', utmCampaign: '', countryCode: 'XX', deviceType: 'Unknown', browser: 'Unknown', os: 'Unknown',
    };
    await s.writeEvents([event]);
    expect(dirtyDays(s, 'ST-ny')).toEqual(['2026-11-03']);
    const expected = await answers(rawOnly(s), 'ST-ny');
    expect(await answers(s, 'ST-ny')).toEqual(expected);
    expect(dirtyDays(s, 'ST-ny')).toEqual([]);
  });

  it('a live day that is no longer hot settles as a clean day on the next read', async () => {
    let clock = NOW;
    const s = createSqliteStore(':memory:', { now: () => clock });
    open.push(s);
    for (const site of SITES) await createSite(s, site);
    await importEvents(s, traffic());
    expect(liveDays(s, 'ST-berlin')).toEqual(['2026-11-05']);
    const before = await answers(s, 'ST-berlin');
    clock += 2 * 86_400_000;
    expect(await answers(s, 'ST-berlin')).toEqual(before);
    expect(liveDays(s, 'ST-berlin')).toEqual([]);
    expect(s.db.prepare("SELECT COUNT(*) FROM live_page_visitors WHERE site_id = 'ST-berlin'").pluck().get()).toBe(0);
  });

  it('a read-only store reads dirty days raw instead of rebuilding them', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'siteline-rollups-'));
    try {
      const file = join(dir, 'ro.db');
      const writer = createSqliteStore(file, { now: () => NOW });
      for (const site of SITES) await createSite(writer, site);
      await importEvents(writer, traffic());
      // As a write by another process would leave it: 11-02 dirty, its rollups gone.
      writer.db.exec("INSERT INTO dirty_days VALUES ('ST-berlin', '2026-11-02')");
      for (const table of ['rollup_days', 'rollup_sessions', 'rollup_pages', 'rollup_events']) {
        writer.db.prepare(`DELETE FROM ${table} WHERE site_id = 'ST-berlin' AND day = '2026-11-02'`).run();
      }
      const expected = await answers(rawOnly(writer), 'ST-berlin');
      const reader = createSqliteStore(file, { readonly: true, now: () => NOW });
      open.push(writer, reader);
      expect(await answers(reader, 'ST-berlin')).toEqual(expected);
      expect(dirtyDays(writer, 'ST-berlin')).toEqual(['2026-11-02']);
    } finally {
      for (const s of open.splice(0)) await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
