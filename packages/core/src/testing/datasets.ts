/**
 * Small datasets of the conformance suite, in the import format. Every
 * expected number in `conformance.ts` was computed by hand from these lines;
 * the comments give the sessions they form.
 */

const GB = { country_code: 'GB', device_type: 'Desktop', browser: 'Chrome', os: 'Windows' };
const DE = { country_code: 'DE', device_type: 'Desktop', browser: 'Firefox', os: 'Linux' };
const US = { country_code: 'US', device_type: 'Mobile', browser: 'Safari', os: 'iOS' };

/**
 * ST-alpha, time zone UTC, domain alpha.example. Sessions by the 30-minute rule:
 * - S1 v1 11-02 10:00-10:03: `/` (newsletter/email/nov), `/pricing`, event signup. Email, 180 s.
 * - S2 v1 11-02 11:00: `/` from www.google.com. Organic Search, bounce.
 * - S3 v2 11-02 10:00-10:00:30: `/pricing` from blog.example.org, `/docs`. Referral, 30 s.
 * - S4 v3 11-02 23:50 to 11-03 00:10: `/` (self-referral), `/docs`. Direct, 1200 s, crosses midnight.
 * - S5 v1 11-03 09:00: `/pricing?utm_source=google&utm_medium=cpc&gclid=..`. Paid Search, bounce, partial UTM.
 * - S6 v4 11-03 12:00-12:00:10: `/docs`, event download. Direct, 10 s, bounce cleared by the event.
 */
export const ALPHA = [
  { ts: '2026-11-02T10:00:00Z', type: 'pageview', visitor_id: 'v1', url: 'https://alpha.example/?utm_source=newsletter&utm_medium=email&utm_campaign=nov', ...GB },
  { ts: '2026-11-02T10:01:00Z', type: 'pageview', visitor_id: 'v1', url: '/pricing', ...GB },
  { ts: '2026-11-02T10:03:00Z', type: 'event', name: 'signup', visitor_id: 'v1', url: '/pricing', ...GB },
  { ts: '2026-11-02T11:00:00Z', type: 'pageview', visitor_id: 'v1', url: '/', referrer: 'https://www.google.com/search?q=alpha', ...GB },
  { ts: '2026-11-02T10:00:00Z', type: 'pageview', visitor_id: 'v2', url: '/pricing', referrer: 'https://blog.example.org/post', ...DE },
  { ts: '2026-11-02T10:00:30Z', type: 'pageview', visitor_id: 'v2', url: '/docs', ...DE },
  { ts: '2026-11-02T23:50:00Z', type: 'pageview', visitor_id: 'v3', url: '/', referrer: 'https://www.alpha.example/blog', ...US },
  { ts: '2026-11-03T00:10:00Z', type: 'pageview', visitor_id: 'v3', url: '/docs', ...US },
  { ts: '2026-11-03T09:00:00Z', type: 'pageview', visitor_id: 'v1', url: '/pricing?utm_source=google&utm_medium=cpc&gclid=abc', ...GB },
  { ts: '2026-11-03T12:00:00Z', type: 'pageview', visitor_id: 'v4', url: '/docs' },
  { ts: '2026-11-03T12:00:10Z', type: 'event', name: 'download', visitor_id: 'v4', url: '/docs' },
].map((line) => ({ site_id: 'ST-alpha', ...line }));

/**
 * ST-beta, time zone America/New_York, around the end of daylight saving
 * time (2026-11-01 02:00 EDT -> 01:00 EST; local 11-01 is 25 hours long).
 * - w1 local 10-31 23:30 and 23:50 EDT: one session, day 10-31, 2 pageviews, 1200 s.
 * - w2 local 11-01 00:30 EDT: bounce, day 11-01.
 * - w3 local 11-01 23:30, 23:55 EST and 11-02 00:20 EST: one session, day 11-01, 3000 s;
 *   its last pageview belongs to day 11-02.
 */
export const BETA = [
  { ts: '2026-11-01T03:30:00Z', type: 'pageview', visitor_id: 'w1', url: '/a' },
  { ts: '2026-11-01T03:50:00Z', type: 'pageview', visitor_id: 'w1', url: '/b' },
  { ts: '2026-11-01T04:30:00Z', type: 'pageview', visitor_id: 'w2', url: '/a' },
  { ts: '2026-11-02T04:30:00Z', type: 'pageview', visitor_id: 'w3', url: '/a' },
  { ts: '2026-11-02T04:55:00Z', type: 'pageview', visitor_id: 'w3', url: '/b' },
  { ts: '2026-11-02T00:20:00-05:00', type: 'pageview', visitor_id: 'w3', url: '/c' },
].map((line) => ({ site_id: 'ST-beta', ...line }));

/**
 * ST-gamma: one session written in two imports, the second bringing an event
 * older than the first import's (out-of-order arrival).
 * Session x of v9: 09:55 `/q` (from b.example), 10:00 `/p` (from a.example), 10:05 event ping. 600 s.
 */
export const GAMMA_FIRST = [
  { site_id: 'ST-gamma', ts: '2026-11-02T10:00:00Z', type: 'pageview', visitor_id: 'v9', session_id: 'x', url: '/p', referrer: 'https://a.example/' },
];
export const GAMMA_SECOND = [
  { site_id: 'ST-gamma', ts: '2026-11-02T10:05:00Z', type: 'event', name: 'ping', visitor_id: 'v9', session_id: 'x', url: '/p' },
  { site_id: 'ST-gamma', ts: '2026-11-02T09:55:00Z', type: 'pageview', visitor_id: 'v9', session_id: 'x', url: '/q', referrer: 'https://b.example/' },
];

/**
 * ST-delta: a later import adds an event in the middle of a stored session.
 * Session y of v7: 10:00 `/a` (from a.example), 10:10 `/c` (from c.example, second import),
 * 10:30 `/b`. The session keeps its first event's attributes: a.example, entry `/a`.
 */
export const DELTA_FIRST = [
  { site_id: 'ST-delta', ts: '2026-11-02T10:00:00Z', type: 'pageview', visitor_id: 'v7', session_id: 'y', url: '/a', referrer: 'https://a.example/', country_code: 'FR' },
  { site_id: 'ST-delta', ts: '2026-11-02T10:30:00Z', type: 'pageview', visitor_id: 'v7', session_id: 'y', url: '/b' },
];
export const DELTA_SECOND = [
  { site_id: 'ST-delta', ts: '2026-11-02T10:10:00Z', type: 'pageview', visitor_id: 'v8', session_id: 'y', url: '/c', referrer: 'https://c.example/', country_code: 'IT' },
];

/** NDJSON text of a dataset. */
export const ndjson = (lines: readonly object[]): string => lines.map((line) => JSON.stringify(line)).join('\n');
