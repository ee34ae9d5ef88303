import type { StoredEvent } from '@siteline/core';
import { describe, expect, it } from 'vitest';
import { GapChanges, mergeSession, nameCounts, needsStoredEvents, sortByTime, type SessionState } from './session-plan.js';

let seq = 0;
const at = (time: string) => Date.parse(`2026-11-02T${time}Z`);
const ev = (time: string, path: string, more: Partial<StoredEvent> = {}): StoredEvent => ({
  siteId: 'ST-s', sessionId: 'x', visitorId: 'v1', ts: at(time), day: '2026-11-02', type: 'pageview', name: '', path, seq: ++seq,
  entryPath: '/a', referrerSource: 'a.example', channel: 'Referral', utmSource: '', utmMedium: '', utmCampaign: '',
  countryCode: 'FR', deviceType: 'Desktop', browser: 'Firefox', os: 'Linux', ...more,
});
const rows = (gaps: GapChanges) => gaps.changed().map((g) => [g.day, g.path, g.timed, g.gap_ms]);

/** The stored state after a first write of 10:00 `/a` and 10:30 `/b` (a.example, FR, visitor v1). */
function stored(): { state: SessionState; events: StoredEvent[] } {
  const events = [ev('10:00:00', '/a'), ev('10:30:00', '/b')];
  return { state: mergeSession(events, undefined, undefined, new GapChanges()).state, events };
}

describe('nameCounts', () => {
  const event = (name: string) => ev('10:00:00', '/a', { type: 'event', name });

  it('counts each custom event once per name, names sorted, counts in their order; pageviews are not counted', () => {
    expect(nameCounts([event('signup'), ev('10:00:01', '/b'), event('download'), event('signup')])).toEqual({ names: ['download', 'signup'], name_counts: [1, 2] });
  });

  it('adds a write\'s events to the stored counts, a new name in its sorted place', () => {
    const known = { names: ['download', 'signup'], name_counts: [1, 2] };
    expect(nameCounts([event('signup'), event('cta')], known)).toEqual({ names: ['cta', 'download', 'signup'], name_counts: [1, 1, 3] });
    expect(nameCounts([ev('10:00:01', '/b')], known)).toEqual(known);
    expect(known).toEqual({ names: ['download', 'signup'], name_counts: [1, 2] }); // the stored state is not changed
  });

  it('a later write of the session carries the counts on (mergeSession)', () => {
    const { state: prior } = mergeSession([ev('10:00:00', '/a'), event('signup')], undefined, undefined, new GapChanges());
    const { state } = mergeSession([{ ...event('signup'), ts: at('10:05:00') }, { ...event('buy'), ts: at('10:06:00') }], prior, undefined, new GapChanges());
    expect([state.names, state.name_counts, state.event_count]).toEqual([['buy', 'signup'], [1, 2], 3]);
  });
});

describe('mergeSession', () => {
  it('makes a new session from its events: first event\'s day and attributes, gaps after each pageview', () => {
    const gaps = new GapChanges();
    const events = [ev('10:00:00', '/a'), ev('10:01:00', '/b'), ev('10:03:00', '/b', { type: 'event', name: 'signup' })];
    const { state, cancel } = mergeSession(events, undefined, undefined, gaps);
    expect(cancel).toBeUndefined();
    expect(state).toMatchObject({
      version: 1, day: '2026-11-02', visitor_id: 'v1', start_ts: at('10:00:00'), end_ts: at('10:03:00'), end_type: 'event',
      pageview_count: 2, event_count: 1, referrer_source: 'a.example', paths: ['/a', '/b'], names: ['signup'], name_counts: [1],
    });
    // /a: 10:00 -> 10:01 (60 s); /b: 10:01 -> 10:03 (120 s); the custom event has no time on page.
    expect(rows(gaps)).toEqual([['2026-11-02', '/a', 1, 60_000], ['2026-11-02', '/b', 1, 120_000]]);
  });

  it('appends: the stored last pageview gets its gap, the state its new end (collector batches)', () => {
    const { state: prior } = stored();
    const gaps = new GapChanges();
    const later = [ev('10:35:00', '/c', { referrerSource: 'ignored.example' })];
    expect(needsStoredEvents(later, prior)).toBe(false);
    const { state, cancel } = mergeSession(later, prior, undefined, gaps);
    expect(cancel).toBe(prior);
    expect(state).toMatchObject({ version: 2, start_ts: at('10:00:00'), end_ts: at('10:35:00'), end_path: '/c', pageview_count: 3, referrer_source: 'a.example' });
    // /b at 10:30 is now followed by /c at 10:35: 300 s.
    expect(rows(gaps)).toEqual([['2026-11-02', '/b', 1, 300_000]]);
  });

  it('prepends: an older event starts the session, with its own day, visitor and attributes', () => {
    const { state: prior } = stored();
    const gaps = new GapChanges();
    const older = [ev('09:55:00', '/q', { visitorId: 'v0', referrerSource: 'b.example', entryPath: '/q', day: '2026-11-02' })];
    expect(needsStoredEvents(older, prior)).toBe(false);
    const { state } = mergeSession(older, prior, undefined, gaps);
    expect(state).toMatchObject({ start_ts: at('09:55:00'), end_ts: at('10:30:00'), visitor_id: 'v0', referrer_source: 'b.example', entry_path: '/q', pageview_count: 3 });
    // The late first event adds its path to those the session already had (page filters read them).
    expect([state.paths, state.names]).toEqual([['/a', '/b', '/q'], []]);
    // /q at 09:55 is followed by the stored first event at 10:00: 300 s.
    expect(rows(gaps)).toEqual([['2026-11-02', '/q', 1, 300_000]]);
  });

  it('an event inside the stored span replaces the gap it splits (needs the stored events)', () => {
    const { state: prior, events } = stored();
    const gaps = new GapChanges();
    const inside = [ev('10:10:00', '/c', { visitorId: 'v8', referrerSource: 'c.example' })];
    expect(needsStoredEvents(inside, prior)).toBe(true);
    const { state } = mergeSession(inside, prior, events, gaps);
    expect(state).toMatchObject({ start_ts: at('10:00:00'), end_ts: at('10:30:00'), visitor_id: 'v1', referrer_source: 'a.example', pageview_count: 3 });
    // /a: 10:00 -> 10:30 (1800 s) becomes 10:00 -> 10:10 (600 s): -1 and -1800 s, +1 and +600 s on the same pageview; /c: 10:10 -> 10:30, 1200 s.
    expect(rows(gaps)).toEqual([['2026-11-02', '/a', 0, -1_200_000], ['2026-11-02', '/c', 1, 1_200_000]]);
    expect(gaps.changed().map((g) => [g.session_id, g.ts])).toEqual([['x', at('10:00:00')], ['x', at('10:10:00')]]);
    expect(state.paths).toEqual(['/a', '/b', '/c']);
  });

  it('counts a gap on the day of the pageview, across midnight', () => {
    const gaps = new GapChanges();
    const first = mergeSession([ev('23:50:00', '/')], undefined, undefined, gaps).state;
    mergeSession([{ ...ev('23:50:00', '/docs'), ts: Date.parse('2026-11-03T00:10:00Z'), day: '2026-11-03' }], first, undefined, gaps);
    expect(rows(gaps)).toEqual([['2026-11-02', '/', 1, 1_200_000]]);
  });

  it('orders equal instants by seq: a higher seq at the stored end is after it, a lower one inside', () => {
    const { state: prior } = stored();
    const end = { ts: prior.end_ts };
    expect(needsStoredEvents([{ ...ev('10:30:00', '/z'), ...end, seq: prior.end_seq + 1 }], prior)).toBe(false);
    expect(needsStoredEvents([{ ...ev('10:30:00', '/z'), ...end, seq: prior.end_seq - 1 }], prior)).toBe(true);
  });
});

describe('sortByTime', () => {
  it('sorts by ts then seq, and leaves sorted input as it is', () => {
    const a = { ts: 2, seq: 1 };
    const b = { ts: 1, seq: 5 };
    const c = { ts: 1, seq: 2 };
    expect(sortByTime([a, b, c])).toEqual([c, b, a]);
    const sorted = [c, b, a];
    expect(sortByTime(sorted)).toBe(sorted);
  });
});
