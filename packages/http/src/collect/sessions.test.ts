import type { EnrichedEvent } from '@siteline/core';
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
});
