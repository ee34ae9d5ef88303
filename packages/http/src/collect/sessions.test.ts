import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type EnrichedEvent, enrichEvent, type Site } from '@siteline/core';
import { describe, expect, it } from 'vitest';
import { OpenSessions } from './sessions.js';

const T0 = Date.parse('2026-11-01T10:00:00Z');
const MIN = 60_000;

function event(minutes: number, path: string, referrerSource: string, visitorId = 'v1'): EnrichedEvent {
  return {
    siteId: 'ST-a', ts: T0 + minutes * MIN, day: '2026-11-01', type: 'pageview', name: '', path, visitorId,
    sessionId: undefined, seq: minutes, referrerSource, channel: referrerSource === 'Direct / None' ? 'Direct' : 'Social',
    utmSource: '', utmMedium: '', utmCampaign: '', countryCode: 'DE', deviceType: 'Desktop', browser: 'Chrome', os: 'Linux',
  };
}

describe('OpenSessions', () => {
  it("stamps events arriving one by one with their session's first-event attributes", () => {
    const sessions = new OpenSessions();
    const a = sessions.stamp(event(0, '/landing', 't.co'));
    const b = sessions.stamp(event(10, '/pricing', 'Direct / None'));
    const c = sessions.stamp(event(40, '/docs', 'Direct / None')); // 30 min after b: same session
    expect([b.sessionId, c.sessionId]).toEqual([a.sessionId, a.sessionId]);
    for (const e of [a, b, c]) expect([e.entryPath, e.referrerSource, e.channel]).toEqual(['/landing', 't.co', 'Social']);
    expect(c.path).toBe('/docs');
  });

  it('starts a new session after more than 30 minutes and forgets idle ones', () => {
    const sessions = new OpenSessions();
    const a = sessions.stamp(event(0, '/a', 't.co'));
    sessions.stamp(event(1, '/x', 'Direct / None', 'v2'));
    expect(sessions.size).toBe(2);
    const b = sessions.stamp(event(31, '/b', 'Direct / None'));
    expect(b.sessionId).not.toBe(a.sessionId);
    expect([b.entryPath, b.referrerSource]).toEqual(['/b', 'Direct / None']);
    expect(sessions.size).toBe(2); // v1's first session was forgotten (31 min idle), v2's is 30 min idle: kept
    sessions.prune(T0 + 200 * MIN);
    expect(sessions.size).toBe(0);
  });

  it('past its memory cap forgets the least recently active session; that visitor starts a new one', () => {
    // Every session here costs the same estimate (same string lengths), so the cap is counted in sessions.
    const one = new OpenSessions();
    one.stamp(event(0, '/a', 't.co', 'v1'));
    const sessions = new OpenSessions({ maxBytes: 3 * one.estimatedBytes });
    const first = ['v1', 'v2', 'v3'].map((v, i) => sessions.stamp(event(i, '/a', 't.co', v)));
    const v1Again = sessions.stamp(event(3, '/b', 'Direct / None', 'v1')); // v1 active again: v2 is now the least recently active
    sessions.stamp(event(4, '/a', 't.co', 'v4'));
    expect([sessions.size, sessions.evicted]).toEqual([3, 1]);
    expect(v1Again.sessionId).toBe(first[0]!.sessionId);
    expect(sessions.stamp(event(5, '/c', 'Direct / None', 'v1')).sessionId).toBe(first[0]!.sessionId);
    expect(sessions.stamp(event(5, '/c', 'Direct / None', 'v3')).sessionId).toBe(first[2]!.sessionId);
    const v2Again = sessions.stamp(event(6, '/c', 'Direct / None', 'v2')); // forgotten at minute 4: a new session
    expect(v2Again.sessionId).not.toBe(first[1]!.sessionId);
    expect([v2Again.entryPath, v2Again.referrerSource]).toEqual(['/c', 'Direct / None']);
    expect(sessions.estimatedBytes).toBeLessThanOrEqual(3 * one.estimatedBytes);
  });

  it('estimates at least the heap its sessions take (V8 heap statistics, typical and 2,000-character pages)', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const site: Site = { id: 'ST-demo', name: 'Demo', timezone: 'UTC', domain: 'example.com', accountId: null, createdAt: '2026-01-01T00:00:00Z' } as Site;
    // One user agent and a given country: the core's bounded caches (user agents, IP lookups) stay as they are.
    const incoming = (i: number, padding: number) => ({
      ts: T0 + i, type: 'pageview' as const, url: `https://example.com/p/${i}${'x'.repeat(padding)}?utm_source=news${i}&utm_medium=email&utm_campaign=c${i}`,
      referrer: `https://www.google.com/search?q=${i}`, ip: `10.0.${(i >> 8) & 255}.${i & 255}`, country_code: 'DE',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    });
    for (const padding of [0, 1950]) {
      const sessions = new OpenSessions({ maxBytes: Infinity });
      gc();
      const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < 20_000; i++) sessions.stamp(enrichEvent(site, incoming(i, padding), () => 'salt', i));
      gc();
      const taken = process.memoryUsage().heapUsed - before;
      expect({ padding, enough: sessions.estimatedBytes >= taken }).toEqual({ padding, enough: true });
      // An estimate far above the truth would close sessions early for nothing: within 2.5x of it.
      expect({ padding, close: sessions.estimatedBytes <= 2.5 * taken }).toEqual({ padding, close: true });
      expect(sessions.size).toBe(20_000);
    }
  });
});
