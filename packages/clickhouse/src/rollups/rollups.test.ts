import { compileSelection, type StoredEvent } from '@siteline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { range } from '../testing/adapter-cases.js';
import { createClickHouseStorage, type ClickHouseStorage } from '../clickhouse-storage.js';
import type { BackgroundFailure } from './failures.js';
import { clickhouseAvailable, startClickHouse, warnIfUnavailable, type TestServer } from '../testing/test-server.js';

warnIfUnavailable('ClickHouse visitor builds');

let seq = 0;
const ev = (sessionId: string, visitorId: string, at: string, path: string, countryCode = 'GB'): StoredEvent => ({
  siteId: 'ST-r', sessionId, visitorId, ts: Date.parse(at), day: at.slice(0, 10), type: 'pageview', name: '', path, seq: ++seq,
  entryPath: path, referrerSource: 'Direct / None', channel: 'Direct', utmSource: '', utmMedium: '', utmCampaign: '',
  countryCode, deviceType: 'Desktop', browser: 'Chrome', os: 'Windows',
});

/**
 * ST-r, UTC, "now" 2026-11-10 12:00Z (only 11-10 is hot).
 * Import: s1 v1 11-02 10:00 /a, 10:05 /b (300 s); s2 v2 11-02 11:00 /a (bounce); s3 v3 11-03 00:10 /c (bounce).
 * Then a small write: s4 v1 11-02 15:00 /a (bounce, v1 again), and s3 gets an older 11-02 23:50 /x:
 * s3 now starts on 11-02 (1200 s, no bounce) and 11-03 has no session left.
 */
const IMPORT = [ev('s1', 'v1', '2026-11-02T10:00:00Z', '/a'), ev('s1', 'v1', '2026-11-02T10:05:00Z', '/b'), ev('s2', 'v2', '2026-11-02T11:00:00Z', '/a'), ev('s3', 'v3', '2026-11-03T00:10:00Z', '/c')];
const LATER = [ev('s4', 'v1', '2026-11-02T15:00:00Z', '/a'), ev('s3', 'v3', '2026-11-02T23:50:00Z', '/x')];

describe.skipIf(!clickhouseAvailable)('visitor counts of settled days', () => {
  let server: TestServer;
  let storage: ClickHouseStorage;
  const builds = async () => {
    const result = await storage.client.query({ query: 'SELECT toString(day) AS d, ver FROM builds.day_marks WHERE builds > 0 ORDER BY d, ver', format: 'JSONEachRow' });
    // ver = writes counted before the build x 10^6 + a random part
    return (await result.json<{ d: string; ver: string }>()).map((r) => [r.d, Math.floor(Number(r.ver) / 1e6)]);
  };

  beforeAll(async () => {
    server = await startClickHouse();
    storage = createClickHouseStorage({ url: server.url, database: 'builds', now: () => Date.parse('2026-11-10T12:00:00Z') });
    await storage.migrate();
    await storage.insertSite({ id: 'ST-r', name: 'R', timezone: 'UTC', domain: null, accountId: null, createdAt: '2026-01-01T00:00:00Z' });
  });
  afterAll(async () => {
    await storage?.close();
    await server?.stop();
  });

  it('are built for the days an import touched', async () => {
    await storage.writeEvents(IMPORT, { hash: 'h1', events: IMPORT.length, importedAt: '2026-11-10T00:00:00Z' });
    expect(await builds()).toEqual([['2026-11-02', 1], ['2026-11-03', 1]]);
    // 11-02: s1, s2 of v1, v2; bounce s2; 300 s; three pageviews. 11-03: s3 of v3, a bounce.
    expect(await storage.summary(range('ST-r', '2026-11-02', '2026-11-02'))).toEqual({ visitors: 2, sessions: 2, bounces: 1, durationMs: 300_000, pageviews: 3 });
    expect(await storage.summary(range('ST-r', '2026-11-03', '2026-11-03'))).toEqual({ visitors: 1, sessions: 1, bounces: 1, durationMs: 0, pageviews: 1 });
  });

  it('are rebuilt at the next read after a write touches the day, including the day a session moved away from', async () => {
    await storage.writeEvents(LATER);
    // 11-02: s1 s2 s4 s3, visitors {v1, v2, v3}, bounces s2 s4, 300 + 1200 s, pageviews 3 + /a + /x.
    expect(await storage.summary(range('ST-r', '2026-11-02', '2026-11-02'))).toEqual({ visitors: 3, sessions: 4, bounces: 2, durationMs: 1_500_000, pageviews: 5 });
    // 11-03: no session starts there any more; its /c pageview stays.
    expect(await storage.summary(range('ST-r', '2026-11-03', '2026-11-03'))).toEqual({ visitors: 0, sessions: 0, bounces: 0, durationMs: 0, pageviews: 1 });
    expect(await builds()).toEqual([['2026-11-02', 1], ['2026-11-02', 2], ['2026-11-03', 1], ['2026-11-03', 2]]);
    // Daily visitors per value come from the same builds: Direct had v1, v2, v3 on 11-02.
    expect(await storage.sessionBreakdown(range('ST-r', '2026-11-02', '2026-11-03'), 'channel')).toEqual([{ key: ['Direct'], visitors: 3, sessions: 4 }]);
    const pages = await storage.pages(range('ST-r', '2026-11-02', '2026-11-03'));
    expect(pages.sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
      // /a: s1, s2, s4 (v1 twice on 11-02), entered by all three, s2 and s4 bounced; timed by s1 (300 s).
      { path: '/a', pageviews: 3, visitors: 2, entrySessions: 3, entryBounces: 2, timedViews: 1, timeOnPageMs: 300_000 },
      { path: '/b', pageviews: 1, visitors: 1, entrySessions: 0, entryBounces: 0, timedViews: 0, timeOnPageMs: 0 },
      { path: '/c', pageviews: 1, visitors: 1, entrySessions: 0, entryBounces: 0, timedViews: 0, timeOnPageMs: 0 },
      // /x (23:50) is followed by /c (00:10): 1200 s; s3 now enters on /x.
      { path: '/x', pageviews: 1, visitors: 1, entrySessions: 1, entryBounces: 0, timedViews: 1, timeOnPageMs: 1_200_000 },
    ]);
  });

  it("keep each session value's pages, and rebuild every day of a session whose value a late first event changed", async () => {
    const byPath = (pages: { path: string }[]) => pages.sort((a, b) => (a.path < b.path ? -1 : 1));
    const country = (code: string) => compileSelection([['is', 'country', [code]]])!;
    const days = range('ST-r', '2026-11-04', '2026-11-05');
    const valueRows = async () => {
      const result = await storage.client.query({
        query: `SELECT toString(day) AS d, value, path, toString(sum(pageviews)) AS pageviews, toString(sum(visitors)) AS visitors FROM builds.value_pages
          WHERE dimension = 'countryCode' AND (day, ver) IN (SELECT day, max(ver) FROM builds.day_marks WHERE builds > 0 GROUP BY day)
          GROUP BY day, value, path ORDER BY d, path`,
        format: 'JSONEachRow',
      });
      return (await result.json<{ d: string; value: string; path: string; pageviews: string; visitors: string }>()).filter((r) => r.d >= '2026-11-04');
    };
    // s7 (v7, GB) crosses midnight: 11-04 23:55 /a, 11-05 00:05 /b. The import builds both days.
    await storage.writeEvents([ev('s7', 'v7', '2026-11-04T23:55:00Z', '/a'), ev('s7', 'v7', '2026-11-05T00:05:00Z', '/b')], { hash: 'h7', events: 2, importedAt: '2026-11-10T00:00:00Z' });
    expect(await valueRows()).toEqual([
      { d: '2026-11-04', value: 'GB', path: '/a', pageviews: '1', visitors: '1' },
      { d: '2026-11-05', value: 'GB', path: '/b', pageviews: '1', visitors: '1' },
    ]);
    expect(byPath(await storage.pages(days, country('GB')))).toEqual([
      { path: '/a', pageviews: 1, visitors: 1, entrySessions: 1, entryBounces: 0, timedViews: 1, timeOnPageMs: 600_000 },
      { path: '/b', pageviews: 1, visitors: 1, entrySessions: 0, entryBounces: 0, timedViews: 0, timeOnPageMs: 0 },
    ]);
    // The summary and timeseries count the value's pageviews of each built day from the same rows: 11-05 has s7's /b, no session start.
    const perDay = async (code: string) => (await storage.timeseries(days, country(code))).map((d) => [d.day, d.sessions, d.pageviews]);
    expect((await storage.summary(range('ST-r', '2026-11-05', '2026-11-05'), country('GB'))).pageviews).toBe(1);
    expect(await perDay('GB')).toEqual([['2026-11-04', 1, 1], ['2026-11-05', 0, 1]]);
    // A first event arrives late, from FR, at 11-04 23:50 /x: s7 is FR now, its 11-05 pageview too, though the write has no event there.
    await storage.writeEvents([ev('s7', 'v7', '2026-11-04T23:50:00Z', '/x', 'FR')]);
    expect(byPath(await storage.pages(days, country('FR')))).toEqual([
      { path: '/a', pageviews: 1, visitors: 1, entrySessions: 0, entryBounces: 0, timedViews: 1, timeOnPageMs: 600_000 },
      { path: '/b', pageviews: 1, visitors: 1, entrySessions: 0, entryBounces: 0, timedViews: 0, timeOnPageMs: 0 },
      { path: '/x', pageviews: 1, visitors: 1, entrySessions: 1, entryBounces: 0, timedViews: 1, timeOnPageMs: 300_000 },
    ]);
    expect(await storage.pages(days, country('GB'))).toEqual([]);
    expect((await builds()).filter(([day]) => day === '2026-11-04' || day === '2026-11-05')).toEqual([['2026-11-04', 1], ['2026-11-04', 2], ['2026-11-05', 1], ['2026-11-05', 2]]);
    expect((await valueRows()).map((r) => [r.d, r.value, r.path])).toEqual([
      ['2026-11-04', 'FR', '/a'], ['2026-11-04', 'FR', '/x'], ['2026-11-05', 'FR', '/b'], // GB has none left
    ]);
    expect((await storage.summary(days, country('FR'))).pageviews).toBe(3);
    expect(await perDay('FR')).toEqual([['2026-11-04', 1, 2], ['2026-11-05', 0, 1]]);
    expect(await perDay('GB')).toEqual([]);
    // They are read from those rows: one more under 11-05's build shows.
    await storage.client.command({
      query: `INSERT INTO builds.value_pages SELECT site_id, dimension, value, day, ver, '/z', 5, 0, 0, 0, 0, 0 FROM builds.value_pages
        WHERE dimension = 'countryCode' AND value = 'FR' AND day = '2026-11-05' AND (day, ver) IN (SELECT day, max(ver) FROM builds.day_marks WHERE builds > 0 GROUP BY day) LIMIT 1`,
    });
    expect((await storage.summary(days, country('FR'))).pageviews).toBe(8);
    expect(await perDay('FR')).toEqual([['2026-11-04', 1, 2], ['2026-11-05', 0, 6]]);
  });

  it('keep the sessions and pages of each page and event name per day: the reads under `page is path` and `event is name` sum them', async () => {
    const page = (path: string) => compileSelection([['is', 'page', [path]]])!;
    const days = range('ST-r', '2026-11-06', '2026-11-07');
    // p1 v1 11-06 10:00 /a, 10:05 /b; p2 v2 11-06 11:00 /b (bounce); p3 v1 11-06 23:55 /c, 11-07 00:05 /a; p4 v3 11-07 09:00 /a, 09:01 /a;
    // p5 v4 11-07 10:00 /d, 10:02 the custom event cta.
    const events = [
      ev('p1', 'v1', '2026-11-06T10:00:00Z', '/a'), ev('p1', 'v1', '2026-11-06T10:05:00Z', '/b'), ev('p2', 'v2', '2026-11-06T11:00:00Z', '/b'),
      ev('p3', 'v1', '2026-11-06T23:55:00Z', '/c'), ev('p3', 'v1', '2026-11-07T00:05:00Z', '/a'),
      ev('p4', 'v3', '2026-11-07T09:00:00Z', '/a'), ev('p4', 'v3', '2026-11-07T09:01:00Z', '/a'),
      ev('p5', 'v4', '2026-11-07T10:00:00Z', '/d'), { ...ev('p5', 'v4', '2026-11-07T10:02:00Z', '/d'), type: 'event' as const, name: 'cta' },
    ];
    await storage.writeEvents(events, { hash: 'hp', events: events.length, importedAt: '2026-11-10T00:00:00Z' }); // the import builds both days
    const rows = await storage.client.query({
      query: `SELECT toString(day) AS d, dimension AS k, value, toString(sessions) AS n, toString(bounces) AS b, toString(duration_ms) AS dur, toString(visitors) AS v
        FROM builds.key_sessions WHERE day >= '2026-11-06' AND day <= '2026-11-07' AND (day, ver) IN (SELECT day, max(ver) FROM builds.day_marks WHERE builds > 0 GROUP BY day)
        ORDER BY d, k, value`,
      format: 'JSONEachRow',
    });
    // /a's sessions on 11-06 are p1 and p3 (whose /a is on 11-07), both v1's; on 11-07 p4.
    expect(await rows.json()).toEqual([
      { d: '2026-11-06', k: 'page', value: '/a', n: '2', b: '0', dur: '900000', v: '1' }, { d: '2026-11-06', k: 'page', value: '/b', n: '2', b: '1', dur: '300000', v: '2' },
      { d: '2026-11-06', k: 'page', value: '/c', n: '1', b: '0', dur: '600000', v: '1' }, { d: '2026-11-07', k: 'event', value: 'cta', n: '1', b: '0', dur: '120000', v: '1' },
      { d: '2026-11-07', k: 'page', value: '/a', n: '1', b: '0', dur: '60000', v: '1' }, { d: '2026-11-07', k: 'page', value: '/d', n: '1', b: '0', dur: '120000', v: '1' },
    ]);
    // Pageviews are those of the path itself, by their own day: /a once on 11-06, three times on 11-07.
    expect(await storage.summary(days, page('/a'))).toEqual({ visitors: 2, sessions: 3, bounces: 0, durationMs: 960_000, pageviews: 4 });
    expect(await storage.summaryVisitors!(days, page('/a'))).toBe(2);
    expect(await storage.summary(days, page('/b'))).toEqual({ visitors: 2, sessions: 2, bounces: 1, durationMs: 300_000, pageviews: 2 });
    const perDay = async (path: string) => (await storage.timeseries(days, page(path))).map((d) => [d.day, d.visitors, d.sessions, d.pageviews]).sort();
    expect(await perDay('/a')).toEqual([['2026-11-06', 1, 2, 1], ['2026-11-07', 1, 1, 3]]);
    expect(await perDay('/c')).toEqual([['2026-11-06', 1, 1, 1]]);
    // /pages: the path's own row (visitors distinct per day: v1 on 11-06, v1 and v3 on 11-07), and the entries of its sessions.
    const byPath = (pages: { path: string }[]) => pages.sort((a, b) => (a.path < b.path ? -1 : 1));
    expect(byPath(await storage.pages(days, page('/a')))).toEqual([
      { path: '/a', pageviews: 4, visitors: 3, entrySessions: 2, entryBounces: 0, timedViews: 2, timeOnPageMs: 360_000 },
      { path: '/c', pageviews: 0, visitors: 0, entrySessions: 1, entryBounces: 0, timedViews: 0, timeOnPageMs: 0 },
    ]);
    expect(await storage.summary(days, page('/none'))).toEqual({ visitors: 0, sessions: 0, bounces: 0, durationMs: 0, pageviews: 0 });
    expect(await storage.pages(days, page('/none'))).toEqual([]);
    // Under the event cta (or a goal on it): p5, all its pageviews, its breakdowns once counted in the background.
    const cta = [compileSelection([['is', 'event', ['cta']]])!, compileSelection([['is', 'goal', ['CTA']]], [{ siteId: 'ST-r', name: 'CTA', type: 'event', value: 'cta', createdAt: '2026-01-01T00:00:00Z' }])!];
    for (const selection of cta) {
      expect(await storage.summary(days, selection)).toEqual({ visitors: 1, sessions: 1, bounces: 0, durationMs: 120_000, pageviews: 1 });
      expect((await storage.timeseries(days, selection)).map((d) => [d.day, d.visitors, d.sessions, d.pageviews])).toEqual([['2026-11-07', 1, 1, 1]]);
      expect(await storage.pages(days, selection)).toEqual([{ path: '/d', pageviews: 1, visitors: 1, entrySessions: 1, entryBounces: 0, timedViews: 1, timeOnPageMs: 120_000 }]);
    }
    await expect.poll(async () => (await storage.client.query({
      query: "SELECT breakdown AS b, key AS k, toString(sessions) AS n FROM builds.value_breakdowns WHERE dimension = 'event' AND value = 'cta' AND breakdown IN ('countryCode', 'browser') ORDER BY b",
      format: 'JSONEachRow',
    })).json(), { timeout: 20_000 }).toEqual([{ b: 'browser', k: 'Chrome', n: '1' }, { b: 'countryCode', k: 'GB', n: '1' }]);
    expect(await storage.sessionBreakdown(days, 'countryCode', cta[1]!)).toEqual([{ key: ['GB'], sessions: 1, visitors: 1 }]);
    // They are read from those rows: one more under 11-07's build shows.
    await storage.client.command({
      query: `INSERT INTO builds.key_sessions SELECT site_id, dimension, value, day, ver, 4, 1, 1000, 3 FROM builds.key_sessions
        WHERE dimension = 'page' AND value = '/a' AND day = '2026-11-07' AND (day, ver) IN (SELECT day, max(ver) FROM builds.day_marks WHERE builds > 0 GROUP BY day) LIMIT 1`,
    });
    expect(await storage.summary(days, page('/a'))).toEqual({ visitors: 5, sessions: 7, bounces: 1, durationMs: 961_000, pageviews: 4 });
    expect(await perDay('/a')).toEqual([['2026-11-06', 1, 2, 1], ['2026-11-07', 4, 5, 3]]);
  });

  it('are never built for a hot day, which is read raw', async () => {
    await storage.writeEvents([ev('s5', 'v5', '2026-11-10T09:00:00Z', '/a'), ev('s6', 'v5', '2026-11-10T11:00:00Z', '/b')]);
    expect(await storage.summary(range('ST-r', '2026-11-10', '2026-11-10'))).toEqual({ visitors: 1, sessions: 2, bounces: 2, durationMs: 0, pageviews: 2 });
    expect((await builds()).filter(([day]) => day === '2026-11-10')).toEqual([]);
  });

  it('a failed build is told to onBackgroundFailure once, and its days are read raw with the same answers', async () => {
    const failures: BackgroundFailure[] = [];
    const failing = createClickHouseStorage({ url: server.url, database: 'failing', now: () => Date.parse('2026-11-10T12:00:00Z'), onBackgroundFailure: (f) => failures.push(f) });
    try {
      await failing.migrate();
      await failing.insertSite({ id: 'ST-r', name: 'R', timezone: 'UTC', domain: null, accountId: null, createdAt: '2026-01-01T00:00:00Z' });
      await failing.writeEvents(IMPORT.map((e) => ({ ...e }))); // not an import: the first read builds 11-02 and 11-03
      await failing.client.command({ query: 'DROP TABLE failing.value_pages' }); // the build's second statement cannot insert
      const expected = { visitors: 2, sessions: 2, bounces: 1, durationMs: 300_000, pageviews: 3 };
      expect(await failing.summary(range('ST-r', '2026-11-02', '2026-11-02'))).toEqual(expected);
      expect(failures).toEqual([{ work: 'visitor rollups', error: expect.stringContaining('failing.value_pages') as string, repeated: 0 }]);
      const marks = await failing.client.query({ query: 'SELECT count() AS n FROM failing.day_marks WHERE builds > 0', format: 'JSONEachRow' });
      expect(await marks.json()).toEqual([{ n: '0' }]); // no day recorded as built
      // Read again at once: the days wait a minute before their build is tried again, and answer raw.
      expect(await failing.summary(range('ST-r', '2026-11-02', '2026-11-02'))).toEqual(expected);
      expect(failures).toHaveLength(1);
    } finally {
      await failing.close();
    }
  });

  it('count again, at their first read under a page, the days whose breakdowns were counted by the attributes alone (before schema version 18)', async () => {
    const db = createClickHouseStorage({ url: server.url, database: 'old_markers', now: () => Date.parse('2026-11-10T12:00:00Z') });
    const query = async <T>(sql: string) => (await db.client.query({ query: sql, format: 'JSONEachRow' })).json<T>();
    const markers = () => query<{ d: string; value: string }>("SELECT toString(day) AS d, value FROM old_markers.value_breakdowns WHERE dimension = '' ORDER BY d, value");
    const pageRows = async () => (await query<{ n: string }>("SELECT toString(count()) AS n FROM old_markers.value_breakdowns WHERE dimension = 'page'"))[0]!.n;
    const page = compileSelection([['is', 'page', ['/a']]])!;
    const day = range('ST-r', '2026-11-02', '2026-11-02');
    try {
      await db.migrate();
      await db.insertSite({ id: 'ST-r', name: 'R', timezone: 'UTC', domain: null, accountId: null, createdAt: '2026-01-01T00:00:00Z' });
      const events = [ev('o1', 'v1', '2026-11-02T10:00:00Z', '/a'), ev('o1', 'v1', '2026-11-02T10:05:00Z', '/b'), ev('o2', 'v2', '2026-11-02T11:00:00Z', '/b', 'FR')];
      await db.writeEvents(events, { hash: 'ho', events: events.length, importedAt: '2026-11-10T00:00:00Z' });
      await expect.poll(markers, { timeout: 20_000 }).toEqual([{ d: '2026-11-02', value: 'pages events' }]);
      // As version 17 left the day: its rows by attribute values only, and a marker of value ''.
      const [{ ver }] = await query<{ ver: string }>("SELECT toString(ver) AS ver FROM old_markers.value_breakdowns WHERE dimension = '' LIMIT 1") as [{ ver: string }];
      await db.client.command({ query: "ALTER TABLE old_markers.value_breakdowns DELETE WHERE dimension IN ('', 'page', 'event')" });
      await expect.poll(async () => (await query<{ n: string }>("SELECT toString(count()) AS n FROM system.mutations WHERE database = 'old_markers' AND is_done = 0"))[0]!.n, { timeout: 20_000 }).toBe('0');
      await db.client.command({ query: `INSERT INTO old_markers.value_breakdowns SELECT 'ST-r', '', '', '', toDate('2026-11-02'), toUInt64(${ver}), '', 0, 0` });
      expect(await pageRows()).toBe('0');
      // The read under /a finds the day uncounted by pages: it reads it raw (o1 alone), and has it counted again.
      expect(await db.sessionBreakdown(day, 'countryCode', page)).toEqual([{ key: ['GB'], sessions: 1, visitors: 1 }]);
      await expect.poll(markers, { timeout: 20_000 }).toEqual([{ d: '2026-11-02', value: '' }, { d: '2026-11-02', value: 'pages events' }]);
      expect(Number(await pageRows())).toBeGreaterThan(0);
      expect(await db.sessionBreakdown(day, 'countryCode', page)).toEqual([{ key: ['GB'], sessions: 1, visitors: 1 }]);
      expect(await db.sessionBreakdown(day, 'countryCode', compileSelection([['is', 'page', ['/b']]])!)).toHaveLength(2);
    } finally {
      await db.close();
    }
  });

  it('count the session breakdowns of each value in the background; reads take counted days from them, the others raw', async () => {
    const db = createClickHouseStorage({ url: server.url, database: 'breakdowns', now: () => Date.parse('2026-11-10T12:00:00Z') });
    const firefox = (e: StoredEvent): StoredEvent => ({ ...e, browser: 'Firefox' });
    const query = async <T>(sql: string) => (await db.client.query({ query: sql, format: 'JSONEachRow' })).json<T>();
    const markers = async () => (await query<{ d: string }>("SELECT toString(day) AS d FROM breakdowns.value_breakdowns WHERE dimension = '' ORDER BY d")).map((r) => r.d);
    const under = (attribute: 'country' | 'browser', value: string) => compileSelection([['is', attribute, [value]]])!;
    const byKey = (rows: { key: string[] }[]) => rows.sort((a, b) => (a.key[0]! < b.key[0]! ? -1 : 1));
    const days = range('ST-r', '2026-11-02', '2026-11-03');
    try {
      await db.migrate();
      await db.insertSite({ id: 'ST-r', name: 'R', timezone: 'UTC', domain: null, accountId: null, createdAt: '2026-01-01T00:00:00Z' });
      // 11-02: s1 v1 GB Chrome, s2 v1 GB Firefox, s3 v2 GB Chrome, s4 v3 FR Chrome. 11-03: s5 v1 GB Chrome.
      const events = [
        ev('b1', 'v1', '2026-11-02T10:00:00Z', '/a'), ev('b1', 'v1', '2026-11-02T10:05:00Z', '/b'), firefox(ev('b2', 'v1', '2026-11-02T14:00:00Z', '/a')),
        ev('b3', 'v2', '2026-11-02T11:00:00Z', '/a'), ev('b4', 'v3', '2026-11-02T12:00:00Z', '/c', 'FR'), ev('b5', 'v1', '2026-11-03T09:00:00Z', '/a'),
      ];
      await db.writeEvents(events, { hash: 'hb', events: events.length, importedAt: '2026-11-10T00:00:00Z' }); // built and counted after the import
      await expect.poll(markers, { timeout: 20_000 }).toEqual(['2026-11-02', '2026-11-03']);
      const gbBrowsers = await query<{ d: string; k: string; n: string; v: string }>(`SELECT toString(day) AS d, key AS k, toString(sessions) AS n, toString(visitors) AS v FROM breakdowns.value_breakdowns
        WHERE dimension = 'countryCode' AND value = 'GB' AND breakdown = 'browser' ORDER BY d, k`);
      expect(gbBrowsers).toEqual([{ d: '2026-11-02', k: 'Chrome', n: '2', v: '2' }, { d: '2026-11-02', k: 'Firefox', n: '1', v: '1' }, { d: '2026-11-03', k: 'Chrome', n: '1', v: '1' }]);
      expect(byKey(await db.sessionBreakdown(days, 'browser', under('country', 'GB')))).toEqual([{ key: ['Chrome'], sessions: 3, visitors: 3 }, { key: ['Firefox'], sessions: 1, visitors: 1 }]);
      expect(byKey(await db.sessionBreakdown(days, 'countryCode', under('browser', 'Chrome')))).toEqual([{ key: ['FR'], sessions: 1, visitors: 1 }, { key: ['GB'], sessions: 3, visitors: 3 }]);
      expect(await db.sessionBreakdown(days, 'utm', under('country', 'GB'))).toEqual([{ key: ['', '', ''], sessions: 4, visitors: 3 }]);
      // Under a page, counted by the same statement: /a's sessions are b1, b2, b3 and b5; /b's b1; /c's b4.
      const page = (path: string) => compileSelection([['is', 'page', [path]]])!;
      const aBrowsers = await query<{ d: string; k: string; n: string; v: string }>(`SELECT toString(day) AS d, key AS k, toString(sessions) AS n, toString(visitors) AS v FROM breakdowns.value_breakdowns
        WHERE dimension = 'page' AND value = '/a' AND breakdown = 'browser' ORDER BY d, k`);
      expect(aBrowsers).toEqual([{ d: '2026-11-02', k: 'Chrome', n: '2', v: '2' }, { d: '2026-11-02', k: 'Firefox', n: '1', v: '1' }, { d: '2026-11-03', k: 'Chrome', n: '1', v: '1' }]);
      expect(byKey(await db.sessionBreakdown(days, 'browser', page('/a')))).toEqual([{ key: ['Chrome'], sessions: 3, visitors: 3 }, { key: ['Firefox'], sessions: 1, visitors: 1 }]);
      expect(await db.sessionBreakdown(days, 'countryCode', page('/a'))).toEqual([{ key: ['GB'], sessions: 4, visitors: 3 }]);
      expect(await db.sessionBreakdown(days, 'countryCode', page('/b'))).toEqual([{ key: ['GB'], sessions: 1, visitors: 1 }]);
      expect(await db.sessionBreakdown(days, 'countryCode', page('/c'))).toEqual([{ key: ['FR'], sessions: 1, visitors: 1 }]);
      expect(await db.sessionBreakdown(days, 'utm', page('/c'))).toEqual([{ key: ['', '', ''], sessions: 1, visitors: 1 }]);
      expect(await db.sessionBreakdown(days, 'countryCode', page('/none'))).toEqual([]);
      await db.client.command({ query: `INSERT INTO breakdowns.value_breakdowns SELECT site_id, 'page', '/c', 'countryCode', day, ver, 'DE', 2, 2 FROM breakdowns.value_breakdowns WHERE dimension = '' AND day = '2026-11-02'` });
      expect(byKey(await db.sessionBreakdown(days, 'countryCode', page('/c')))).toEqual([{ key: ['DE'], sessions: 2, visitors: 2 }, { key: ['FR'], sessions: 1, visitors: 1 }]);
      // A day counted twice under its build (two reads that found it uncounted at once) reads the same.
      await db.client.command({ query: "INSERT INTO breakdowns.value_breakdowns SELECT * FROM breakdowns.value_breakdowns WHERE day = '2026-11-02'" });
      expect(byKey(await db.sessionBreakdown(days, 'browser', under('country', 'GB')))).toEqual([{ key: ['Chrome'], sessions: 3, visitors: 3 }, { key: ['Firefox'], sessions: 1, visitors: 1 }]);
      // The read takes a counted day from its rows: one more row under 11-02's build shows.
      await db.client.command({ query: `INSERT INTO breakdowns.value_breakdowns SELECT site_id, 'countryCode', 'GB', 'browser', day, ver, 'Safari', 5, 4 FROM breakdowns.value_breakdowns WHERE dimension = '' AND day = '2026-11-02'` });
      expect(byKey(await db.sessionBreakdown(days, 'browser', under('country', 'GB')))).toContainEqual({ key: ['Safari'], sessions: 5, visitors: 4 });

      // A late first event moves b3 to FR: 11-02 is built again at the next read, read raw, then counted again.
      await db.writeEvents([ev('b3', 'v2', '2026-11-02T10:30:00Z', '/x', 'FR')]);
      const gb = [{ key: ['Chrome'], sessions: 2, visitors: 2 }, { key: ['Firefox'], sessions: 1, visitors: 1 }];
      expect(byKey(await db.sessionBreakdown(days, 'browser', under('country', 'GB')))).toEqual(gb);
      await expect.poll(markers, { timeout: 20_000 }).toEqual(['2026-11-02', '2026-11-02', '2026-11-02', '2026-11-03']); // the old build's two, the new one's
      expect(byKey(await db.sessionBreakdown(days, 'browser', under('country', 'GB')))).toEqual(gb);
      expect(byKey(await db.sessionBreakdown(days, 'countryCode', under('browser', 'Chrome')))).toEqual([{ key: ['FR'], sessions: 2, visitors: 2 }, { key: ['GB'], sessions: 2, visitors: 2 }]);
    } finally {
      await db.close();
    }
  });
  it('count the goals and saved funnels of each value in the background; reads take counted days from them, the others raw', async () => {
    const db = createClickHouseStorage({ url: server.url, database: 'value_goals', now: () => Date.parse('2026-11-10T12:00:00Z') });
    const signup = (e: StoredEvent): StoredEvent => ({ ...e, type: 'event', name: 'signup' });
    const query = async <T>(sql: string) => (await db.client.query({ query: sql, format: 'JSONEachRow' })).json<T>();
    const markers = async (kind: string) =>
      (await query<{ d: string }>(`SELECT toString(day) AS d FROM value_goals.value_goals WHERE dimension = '' AND kind = '${kind}' ORDER BY d`)).map((r) => r.d);
    const goals = [{ type: 'page', value: '/b' }, { type: 'event', value: 'signup' }] as const;
    const steps = [{ type: 'page', value: '/a' }, { type: 'page', value: '/b' }] as const;
    const country = (code: string) => compileSelection([['is', 'country', [code]]])!;
    const both = range('ST-r', '2026-11-02', '2026-11-03');
    const third = range('ST-r', '2026-11-03', '2026-11-03');
    try {
      await db.migrate();
      await db.insertSite({ id: 'ST-r', name: 'R', timezone: 'UTC', domain: null, accountId: null, createdAt: '2026-01-01T00:00:00Z' });
      // 11-02: g1 v1 GB /a /b signup; g2 v1 GB /a signup; g3 v2 GB /b /b; g4 v3 FR /b signup;
      // g6 v4 GB starts 11-02 23:50 (/a) and signs up on 11-03. 11-03: g5 v1 GB /b. All Chrome.
      const events = [
        ev('g1', 'v1', '2026-11-02T10:00:00Z', '/a'), ev('g1', 'v1', '2026-11-02T10:05:00Z', '/b'), signup(ev('g1', 'v1', '2026-11-02T10:06:00Z', '/b')),
        ev('g2', 'v1', '2026-11-02T14:00:00Z', '/a'), signup(ev('g2', 'v1', '2026-11-02T14:01:00Z', '/a')),
        ev('g3', 'v2', '2026-11-02T11:00:00Z', '/b'), ev('g3', 'v2', '2026-11-02T11:02:00Z', '/b'),
        ev('g4', 'v3', '2026-11-02T12:00:00Z', '/b', 'FR'), signup(ev('g4', 'v3', '2026-11-02T12:01:00Z', '/b', 'FR')),
        ev('g6', 'v4', '2026-11-02T23:50:00Z', '/a'), signup(ev('g6', 'v4', '2026-11-03T00:05:00Z', '/a')),
        ev('g5', 'v1', '2026-11-03T09:00:00Z', '/b'),
      ];
      await db.writeEvents(events, { hash: 'hg', events: events.length, importedAt: '2026-11-10T00:00:00Z' }); // no goals or funnels yet: none counted
      await db.insertFunnel!({ siteId: 'ST-r', name: 'AB', steps: [{ page: '/a' }, { page: '/b' }], createdAt: '2026-11-10T00:00:00Z' });
      // GB: /b 4 pageviews (g1, g3 twice, g5), visitors v1 and v2 on 11-02, v1 on 11-03; signup 3 events (g1, g2, g6),
      // visitors of sessions starting 11-02: v1 and v4. On 11-03 alone: g5's /b, and g6's signup without its visitor (g6 starts 11-02).
      const gb = [{ conversions: 4, visitors: 3 }, { conversions: 3, visitors: 2 }];
      const fr = [{ conversions: 1, visitors: 1 }, { conversions: 1, visitors: 1 }];
      const gbThird = [{ conversions: 1, visitors: 1 }, { conversions: 1, visitors: 0 }];
      // The funnel /a then /b under GB: g1 (v1) reaches both, g2 (v1) and g6 (v4) the first; g3 and g5 have no /a.
      expect(await db.goalTotals!(both, goals, country('GB'))).toEqual(gb); // raw, then counted in the background
      expect(await db.funnelVisitors!(both, steps, country('GB'))).toEqual([2, 1]);
      await expect.poll(() => markers('goal'), { timeout: 20_000 }).toEqual(['2026-11-02', '2026-11-02', '2026-11-03', '2026-11-03']);
      await expect.poll(() => markers('funnel'), { timeout: 20_000 }).toEqual(['2026-11-02', '2026-11-02', '2026-11-03', '2026-11-03']);
      const gbRows = await query<{ d: string; k: string; c: string; v: string }>(`SELECT toString(day) AS d, key AS k, toString(max(conversions)) AS c, toString(max(visitors)) AS v
        FROM value_goals.value_goals WHERE dimension = 'countryCode' AND value = 'GB' GROUP BY day, kind, key ORDER BY d, k`);
      expect(gbRows).toEqual([
        { d: '2026-11-02', k: '1 [["page","/a"],["page","/b"]]', c: '0', v: '2' }, { d: '2026-11-02', k: '2 [["page","/a"],["page","/b"]]', c: '0', v: '1' },
        { d: '2026-11-02', k: 'event:signup', c: '2', v: '2' }, { d: '2026-11-02', k: 'page:/b', c: '3', v: '2' },
        { d: '2026-11-03', k: 'event:signup', c: '1', v: '0' }, { d: '2026-11-03', k: 'page:/b', c: '1', v: '1' },
      ]);
      expect(await db.goalTotals!(both, goals, country('GB'))).toEqual(gb);
      expect(await db.goalTotals!(both, goals, country('FR'))).toEqual(fr);
      expect(await db.goalTotals!(third, goals, country('GB'))).toEqual(gbThird);
      expect(await db.goalTotals!(both, goals, compileSelection([['is', 'browser', ['Chrome']]])!)).toEqual([{ conversions: 5, visitors: 4 }, { conversions: 4, visitors: 3 }]);
      expect(await db.funnelVisitors!(both, steps, country('GB'))).toEqual([2, 1]);
      expect(await db.funnelVisitors!(both, steps, country('FR'))).toEqual([0, 0]);
      // Under a page, counted by the same statements: /a's sessions are g1, g2 (v1) and g6 (v4); /b's g1, g3 (v2), g4 (v3, FR), g5 (v1, 11-03).
      const page = (path: string) => compileSelection([['is', 'page', [path]]])!;
      const pageRows = await query<{ d: string; k: string; c: string; v: string }>(`SELECT toString(day) AS d, key AS k, toString(max(conversions)) AS c, toString(max(visitors)) AS v
        FROM value_goals.value_goals WHERE dimension = 'page' AND value = '/a' GROUP BY day, kind, key ORDER BY d, k`);
      expect(pageRows).toEqual([
        { d: '2026-11-02', k: '1 [["page","/a"],["page","/b"]]', c: '0', v: '2' }, { d: '2026-11-02', k: '2 [["page","/a"],["page","/b"]]', c: '0', v: '1' },
        { d: '2026-11-02', k: 'event:signup', c: '2', v: '2' }, { d: '2026-11-02', k: 'page:/b', c: '1', v: '1' },
        { d: '2026-11-03', k: 'event:signup', c: '1', v: '0' },
      ]);
      expect(await db.goalTotals!(both, goals, page('/a'))).toEqual([{ conversions: 1, visitors: 1 }, { conversions: 3, visitors: 2 }]);
      expect(await db.goalTotals!(both, goals, page('/b'))).toEqual([{ conversions: 5, visitors: 4 }, { conversions: 2, visitors: 2 }]);
      expect(await db.goalTotals!(third, goals, page('/a'))).toEqual([{ conversions: 0, visitors: 0 }, { conversions: 1, visitors: 0 }]);
      expect(await db.goalTotals!(third, goals, page('/b'))).toEqual([{ conversions: 1, visitors: 1 }, { conversions: 0, visitors: 0 }]);
      expect(await db.goalTotals!(both, goals, page('/none'))).toEqual([{ conversions: 0, visitors: 0 }, { conversions: 0, visitors: 0 }]);
      expect(await db.funnelVisitors!(both, steps, page('/a'))).toEqual([2, 1]);
      expect(await db.funnelVisitors!(both, steps, page('/b'))).toEqual([1, 1]);
      // Under the event signup: g1, g2 (v1), g4 (v3, FR) and g6 (v4); /b's pageviews among them are g1's and g4's.
      const signedUp = compileSelection([['is', 'event', ['signup']]])!;
      expect(await db.goalTotals!(both, goals, signedUp)).toEqual([{ conversions: 2, visitors: 2 }, { conversions: 4, visitors: 3 }]);
      expect(await db.funnelVisitors!(both, steps, signedUp)).toEqual([2, 1]);
      const eventRows = await query<{ d: string; k: string; c: string; v: string }>(`SELECT toString(day) AS d, key AS k, toString(max(conversions)) AS c, toString(max(visitors)) AS v
        FROM value_goals.value_goals WHERE dimension = 'event' AND value = 'signup' AND kind = 'goal' GROUP BY day, key ORDER BY d, k`);
      expect(eventRows).toEqual([
        { d: '2026-11-02', k: 'event:signup', c: '3', v: '3' }, { d: '2026-11-02', k: 'page:/b', c: '2', v: '2' }, { d: '2026-11-03', k: 'event:signup', c: '1', v: '0' },
      ]);
      // The page reads take the counted rows: one more under /a on 11-02 shows.
      await db.client.command({ query: `INSERT INTO value_goals.value_goals SELECT site_id, 'page', '/a', 'goal', 'event:signup', day, ver, 5, 1
        FROM value_goals.value_goals WHERE dimension = '' AND day = '2026-11-02' LIMIT 1` });
      // Each column of a key's day is its largest row: conversions 5 on 11-02 and 1 on 11-03; visitors stay 2 (2 > 1).
      expect((await db.goalTotals!(both, goals, page('/a')))[1]).toEqual({ conversions: 6, visitors: 2 });
      // A day counted twice under its build reads the same; one more row under 11-02's build shows.
      await db.client.command({ query: "INSERT INTO value_goals.value_goals SELECT * FROM value_goals.value_goals WHERE day = '2026-11-02'" });
      expect(await db.goalTotals!(both, goals, country('GB'))).toEqual(gb);
      expect(await db.funnelVisitors!(both, steps, country('GB'))).toEqual([2, 1]);
      const more = (kind: string, key: string, conversions: number, visitors: number) =>
        db.client.command({ query: `INSERT INTO value_goals.value_goals SELECT site_id, 'countryCode', 'GB', '${kind}', '${key}', day, ver, ${conversions}, ${visitors}
          FROM value_goals.value_goals WHERE dimension = '' AND day = '2026-11-02' LIMIT 1` });
      await more('goal', 'page:/b', 9, 0);
      await more('funnel', '2 [["page","/a"],["page","/b"]]', 0, 7);
      expect((await db.goalTotals!(both, goals, country('GB')))[0]).toEqual({ conversions: 10, visitors: 3 });
      expect(await db.funnelVisitors!(both, steps, country('GB'))).toEqual([2, 7]);

      // A late first event moves g3 to FR, now /a /b /b: 11-02 is built again at the next read, read raw, then counted again.
      await db.writeEvents([ev('g3', 'v2', '2026-11-02T10:30:00Z', '/a', 'FR')]);
      const gbAfter = [{ conversions: 2, visitors: 2 }, { conversions: 3, visitors: 2 }];
      const frAfter = [{ conversions: 3, visitors: 2 }, { conversions: 1, visitors: 1 }];
      expect(await db.goalTotals!(both, goals, country('GB'))).toEqual(gbAfter);
      expect(await db.funnelVisitors!(both, steps, country('FR'))).toEqual([1, 1]);
      const again = ['2026-11-02', '2026-11-02', '2026-11-02', '2026-11-02', '2026-11-02', '2026-11-02', '2026-11-03', '2026-11-03']; // two old builds' (one doubled), the new one's
      await expect.poll(() => markers('goal'), { timeout: 20_000 }).toEqual(again);
      await expect.poll(() => markers('funnel'), { timeout: 20_000 }).toEqual(again);
      expect(await db.goalTotals!(both, goals, country('GB'))).toEqual(gbAfter);
      expect(await db.goalTotals!(both, goals, country('FR'))).toEqual(frAfter);
      expect(await db.funnelVisitors!(both, steps, country('GB'))).toEqual([2, 1]);
      expect(await db.funnelVisitors!(both, steps, country('FR'))).toEqual([1, 1]);
      // Steps that are no saved funnel's are read raw: /b then signup under FR (g4).
      expect(await db.funnelVisitors!(both, [{ type: 'page', value: '/b' }, { type: 'event', value: 'signup' }], country('FR'))).toEqual([2, 1]);
    } finally {
      await db.close();
    }
  });
});
