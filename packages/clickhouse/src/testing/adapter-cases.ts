/**
 * Hand-checked adapter cases (used only by tests), run against one server
 * and against a two-shard cluster. Every expected number is worked out in
 * the comments from the events below.
 */
import { DuplicateImportError, type DayRange, type Storage, type StoredEvent } from '@siteline/core';
import { expect, it } from 'vitest';
import { lateEventCases } from './late-cases.js';

let seq = 0;
const ev = (p: Partial<StoredEvent> & Pick<StoredEvent, 'sessionId' | 'visitorId'> & { at: string }): StoredEvent => {
  const { at, ...rest } = p;
  return {
    siteId: 'ST-t', ts: Date.parse(at), day: at.slice(0, 10), type: 'pageview', name: '', path: '/', seq: ++seq,
    entryPath: '/', referrerSource: 'Direct / None', channel: 'Direct', utmSource: '', utmMedium: '', utmCampaign: '',
    countryCode: 'GB', deviceType: 'Desktop', browser: 'Chrome', os: 'Windows', ...rest,
  };
};
const utm = { channel: 'Email', utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'nov' };

/**
 * ST-t, UTC.
 * A va 11-02 10:00 `/`, 10:01 `/pricing`, 10:03 event signup: 180 s, Email, utm newsletter/email/nov.
 * B va 11-02 11:00 `/` from google.com: bounce, Organic Search.
 * C vb 11-02 23:50 `/`, 11-03 00:10 `/docs` (visitor id already vb-next): 1200 s, crosses midnight, day 11-02.
 * D vc 11-03 09:00:00 `/pricing` seq n, event download at the same instant seq n+1, 09:00:30 `/docs`: 30 s.
 * E vd 11-03 12:00 `/docs`: bounce.
 */
export const EVENTS: StoredEvent[] = [
  ev({ sessionId: 'A', visitorId: 'va', at: '2026-11-02T10:00:00Z', ...utm }),
  ev({ sessionId: 'A', visitorId: 'va', at: '2026-11-02T10:01:00Z', path: '/pricing', ...utm }),
  ev({ sessionId: 'A', visitorId: 'va', at: '2026-11-02T10:03:00Z', type: 'event', name: 'signup', path: '/pricing', ...utm }),
  ev({ sessionId: 'B', visitorId: 'va', at: '2026-11-02T11:00:00Z', referrerSource: 'google.com', channel: 'Organic Search' }),
  ev({ sessionId: 'C', visitorId: 'vb', at: '2026-11-02T23:50:00Z', countryCode: 'US' }),
  ev({ sessionId: 'C', visitorId: 'vb-next', at: '2026-11-03T00:10:00Z', path: '/docs', countryCode: 'US' }),
  ev({ sessionId: 'D', visitorId: 'vc', at: '2026-11-03T09:00:00Z', path: '/pricing', entryPath: '/pricing' }),
  ev({ sessionId: 'D', visitorId: 'vc', at: '2026-11-03T09:00:00Z', type: 'event', name: 'download', path: '/pricing', entryPath: '/pricing' }),
  ev({ sessionId: 'D', visitorId: 'vc', at: '2026-11-03T09:00:30Z', path: '/docs', entryPath: '/pricing' }),
  ev({ sessionId: 'E', visitorId: 'vd', at: '2026-11-03T12:00:00Z', path: '/docs', entryPath: '/docs' }),
];

/**
 * ST-u, written in three calls. F: 10:00 `/p` from a.example, then later
 * 10:05 event ping and an older 09:55 `/q` from b.example (out of order):
 * one session, 600 s, attributes of 09:55. G: 11-01 23:00 `/`, then 11-02
 * 00:05 `/` in a later call: starts 11-01, so not a session of 11-02.
 */
const u = (p: Parameters<typeof ev>[0]) => ev({ siteId: 'ST-u', ...p });
const F1 = [u({ sessionId: 'F', visitorId: 'vf', at: '2026-11-02T10:00:00Z', path: '/p', entryPath: '/p', referrerSource: 'a.example', channel: 'Referral' })];
const F2 = [
  u({ sessionId: 'F', visitorId: 'vf', at: '2026-11-02T10:05:00Z', type: 'event', name: 'ping', path: '/p', entryPath: '/q', referrerSource: 'b.example', channel: 'Referral' }),
  u({ sessionId: 'F', visitorId: 'vf', at: '2026-11-02T09:55:00Z', path: '/q', entryPath: '/q', referrerSource: 'b.example', channel: 'Referral' }),
  u({ sessionId: 'G', visitorId: 'vg', at: '2026-11-01T23:00:00Z' }),
];
const G2 = [u({ sessionId: 'G', visitorId: 'vg', at: '2026-11-02T00:05:00Z' })];

export function range(siteId: string, from: string, to: string): DayRange {
  return { siteId, from, to, startMs: Date.parse(`${from}T00:00:00Z`), endMs: Date.parse(`${to}T00:00:00Z`) + 86_400_000 };
}
const byKey = <T extends { path?: string; name?: string; key?: string[]; day?: string }>(rows: T[]) =>
  [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** Registers the cases; `storage()` returns the migrated, empty store of the current file. */
export function adapterCases(storage: () => Storage): void {
  it('stores and reads sites', async () => {
    const s = storage();
    const site = { id: 'ST-t', name: "Tom's \\ site", timezone: 'UTC', domain: 't.example', accountId: null, createdAt: '2026-01-02T00:00:00Z' };
    await s.insertSite(site);
    await s.insertSite({ ...site, id: 'ST-u', domain: null, accountId: 'acct-1', createdAt: '2026-01-01T00:00:00Z' });
    await expect(s.insertSite(site)).rejects.toThrow(/exists/);
    expect(await s.getSite('ST-t')).toEqual(site);
    expect(await s.getSite("ST-t' OR 1=1 --")).toBeUndefined();
    expect((await s.listSites()).map((x) => x.id)).toEqual(['ST-u', 'ST-t']);
    expect((await s.listSites({ accountId: null })).map((x) => x.id)).toEqual(['ST-t']);
    expect((await s.listSites({ accountId: 'acct-1' })).map((x) => x.id)).toEqual(['ST-u']);
  });

  it('writes events once per import hash', async () => {
    const s = storage();
    const record = { hash: 'h-1', events: EVENTS.length, importedAt: '2026-11-04T00:00:00Z' };
    await s.writeEvents(EVENTS, record);
    await expect(s.writeEvents(EVENTS, record)).rejects.toBeInstanceOf(DuplicateImportError);
    await s.writeEvents(F1);
    await s.writeEvents(F2);
    await s.writeEvents(G2);
    expect((await s.summary(range('ST-t', '2026-11-02', '2026-11-03'))).pageviews).toBe(8);
  });

  it('sums a day, the next day and both', async () => {
    const s = storage();
    // 11-02: sessions A B C, visitors {va, vb}, bounce B, 180 + 1200 s; pageviews A2 B1 C1.
    expect(await s.summary(range('ST-t', '2026-11-02', '2026-11-02'))).toEqual({ visitors: 2, sessions: 3, bounces: 1, durationMs: 1_380_000, pageviews: 4 });
    // 11-03: sessions D E, visitors {vc, vd}, bounce E, 30 s; pageviews C1 D2 E1.
    expect(await s.summary(range('ST-t', '2026-11-03', '2026-11-03'))).toEqual({ visitors: 2, sessions: 2, bounces: 1, durationMs: 30_000, pageviews: 4 });
    expect(await s.summary(range('ST-t', '2026-11-02', '2026-11-03'))).toEqual({ visitors: 4, sessions: 5, bounces: 2, durationMs: 1_410_000, pageviews: 8 });
    expect(await s.summary(range('ST-t', '2030-01-01', '2030-01-31'))).toEqual({ visitors: 0, sessions: 0, bounces: 0, durationMs: 0, pageviews: 0 });
    expect(byKey(await s.timeseries(range('ST-t', '2026-11-01', '2026-11-03')))).toEqual([
      { day: '2026-11-02', visitors: 2, sessions: 3, pageviews: 4 },
      { day: '2026-11-03', visitors: 2, sessions: 2, pageviews: 4 },
    ]);
  });

  it('merges a session written in several calls, out of order', async () => {
    const s = storage();
    // F: /q /p + ping, 600 s, not a bounce; G started 11-01 so only its pageview counts on 11-02.
    expect(await s.summary(range('ST-u', '2026-11-02', '2026-11-02'))).toEqual({ visitors: 1, sessions: 1, bounces: 0, durationMs: 600_000, pageviews: 3 });
    expect(await s.summary(range('ST-u', '2026-11-01', '2026-11-01'))).toEqual({ visitors: 1, sessions: 1, bounces: 0, durationMs: 3_900_000, pageviews: 1 });
    expect(await s.sessionBreakdown(range('ST-u', '2026-11-02', '2026-11-02'), 'referrerSource')).toEqual([{ key: ['b.example'], visitors: 1, sessions: 1 }]);
    expect(byKey(await s.pages(range('ST-u', '2026-11-02', '2026-11-02')))).toEqual([
      { path: '/', pageviews: 1, visitors: 1, entrySessions: 0, entryBounces: 0, timedViews: 0, timeOnPageMs: 0 },
      { path: '/p', pageviews: 1, visitors: 1, entrySessions: 0, entryBounces: 0, timedViews: 1, timeOnPageMs: 300_000 },
      { path: '/q', pageviews: 1, visitors: 1, entrySessions: 1, entryBounces: 0, timedViews: 1, timeOnPageMs: 300_000 },
    ]);
  });

  it('breaks sessions down by attribute, visitors summed per day', async () => {
    const s = storage();
    const r = range('ST-t', '2026-11-02', '2026-11-03');
    // Direct: C (vb, 11-02), D (vc), E (vd) on 11-03 -> 1 + 2 visitors.
    expect(byKey(await s.sessionBreakdown(r, 'channel'))).toEqual([
      { key: ['Direct'], visitors: 3, sessions: 3 },
      { key: ['Email'], visitors: 1, sessions: 1 },
      { key: ['Organic Search'], visitors: 1, sessions: 1 },
    ]);
    expect(byKey(await s.sessionBreakdown(r, 'utm'))).toEqual([
      { key: ['', '', ''], visitors: 4, sessions: 4 },
      { key: ['newsletter', 'email', 'nov'], visitors: 1, sessions: 1 },
    ]);
    expect(byKey(await s.sessionBreakdown(r, 'countryCode'))).toEqual([
      { key: ['GB'], visitors: 3, sessions: 4 },
      { key: ['US'], visitors: 1, sessions: 1 },
    ]);
  });

  it('sums pages with time on page across midnight and equal instants', async () => {
    const s = storage();
    // `/`: A 10:00 -> 10:01 (60 s), B untimed, C 23:50 -> 00:10 next day (1200 s).
    expect(byKey(await s.pages(range('ST-t', '2026-11-02', '2026-11-02')))).toEqual([
      { path: '/', pageviews: 3, visitors: 2, entrySessions: 3, entryBounces: 1, timedViews: 2, timeOnPageMs: 1_260_000 },
      { path: '/pricing', pageviews: 1, visitors: 1, entrySessions: 0, entryBounces: 0, timedViews: 1, timeOnPageMs: 120_000 },
    ]);
    // `/pricing` D -> download at the same instant (0 ms); `/docs` views are all last of their session.
    expect(byKey(await s.pages(range('ST-t', '2026-11-03', '2026-11-03')))).toEqual([
      { path: '/docs', pageviews: 3, visitors: 3, entrySessions: 1, entryBounces: 1, timedViews: 0, timeOnPageMs: 0 },
      { path: '/pricing', pageviews: 1, visitors: 1, entrySessions: 1, entryBounces: 0, timedViews: 1, timeOnPageMs: 0 },
    ]);
  });

  it('counts custom events and live visitors', async () => {
    const s = storage();
    const r = range('ST-t', '2026-11-02', '2026-11-03');
    expect(byKey(await s.customEvents(r))).toEqual([{ name: 'download', count: 1 }, { name: 'signup', count: 1 }]);
    expect(await s.customEvents(r, 'signup')).toEqual([{ name: 'signup', count: 1 }]);
    expect(await s.customEvents(r, "signup' OR '1'='1")).toEqual([]);
    const noon = Date.parse('2026-11-03T12:00:00Z');
    expect(await s.liveVisitors('ST-t', noon - 300_000, noon)).toBe(1);
    expect(await s.liveVisitors('ST-t', noon, noon + 300_000)).toBe(0);
    expect(await s.liveVisitors('ST-t', Date.parse('2026-11-02T09:59:00Z'), Date.parse('2026-11-02T11:00:00Z'))).toBe(1);
  });
  lateEventCases(storage);
}
