/**
 * The dataset of the properties-and-goals conformance cases (properties-goals.md), in the
 * import format. Every expected number in `conformance-properties.ts` was worked out by
 * hand from these lines; the comments list the sessions (explicit session ids).
 */

const DE = { country_code: 'DE', device_type: 'Desktop', browser: 'Chrome', os: 'Windows' };
const AT = { country_code: 'AT', device_type: 'Mobile', browser: 'Safari', os: 'iOS' };
const US = { country_code: 'US', device_type: 'Desktop', browser: 'Firefox', os: 'Linux' };
const GB = { country_code: 'GB', device_type: 'Desktop', browser: 'Edge', os: 'Windows' };
const FR = { country_code: 'FR', device_type: 'Desktop', browser: 'Safari', os: 'macOS' };

/**
 * ST-props, time zone UTC. The range of most cases is 2026-11-10 .. 11-11; its previous
 * period is 11-08 .. 11-09.
 * - Q1 a (DE) 11-10 09:00 `/pricing`, 09:01 Signup {plan: pro, seats: 3}, 09:02 `/thanks`. 120 s.
 * - Q2 b (AT) 11-10 10:00 `/pricing`, 10:01 Signup {plan: free}. 60 s.
 * - Q3 c (US) 11-10 23:50 `/blog/a`, 11-11 00:10 Signup {plan: pro, coupon: X}, 00:11 `/thanks/`. 1260 s, crosses midnight.
 * - Q4 a (DE) 11-11 08:00 `/`, 08:01 Download {file: a.pdf}, 08:02 Signup {plan: pro, trial: null}. 120 s.
 * - Q5 d (DE) 11-11 12:00 `/blog`, 12:01 Signup without props. 60 s.
 * - Q6 e (GB) 11-11 13:00 `/blog/` (its props are ignored: a pageview), 13:01 Download {file: b.pdf, size: large}. 60 s.
 * - Q7 a (DE) 11-11 15:00 `/pricing`, 15:01 Signup {plan: Pro}. 60 s.
 * - P1 f (DE) 11-09 10:00 `/pricing`, 10:01 Signup {plan: free}. 60 s.
 * - P2 g (FR) 11-08 10:00 `/thanks`. Bounce.
 * Goals: Signup (event), `Visit /thanks*`, `Visit /blog/*`, Purchase (event, never sent).
 */
export const PROPS = [
  { session_id: 'Q1', visitor_id: 'a', ts: '2026-11-10T09:00:00Z', type: 'pageview', url: '/pricing', ...DE },
  { session_id: 'Q1', visitor_id: 'a', ts: '2026-11-10T09:01:00Z', type: 'event', name: 'Signup', url: '/pricing', props: { plan: 'pro', seats: 3 }, ...DE },
  { session_id: 'Q1', visitor_id: 'a', ts: '2026-11-10T09:02:00Z', type: 'pageview', url: '/thanks', ...DE },
  { session_id: 'Q2', visitor_id: 'b', ts: '2026-11-10T10:00:00Z', type: 'pageview', url: '/pricing', ...AT },
  { session_id: 'Q2', visitor_id: 'b', ts: '2026-11-10T10:01:00Z', type: 'event', name: 'Signup', url: '/pricing', props: { plan: 'free' }, ...AT },
  { session_id: 'Q3', visitor_id: 'c', ts: '2026-11-10T23:50:00Z', type: 'pageview', url: '/blog/a', ...US },
  { session_id: 'Q3', visitor_id: 'c', ts: '2026-11-11T00:10:00Z', type: 'event', name: 'Signup', url: '/blog/a', props: { plan: 'pro', coupon: 'X' }, ...US },
  { session_id: 'Q3', visitor_id: 'c', ts: '2026-11-11T00:11:00Z', type: 'pageview', url: '/thanks/', ...US },
  { session_id: 'Q4', visitor_id: 'a', ts: '2026-11-11T08:00:00Z', type: 'pageview', url: '/', ...DE },
  { session_id: 'Q4', visitor_id: 'a', ts: '2026-11-11T08:01:00Z', type: 'event', name: 'Download', url: '/', props: { file: 'a.pdf' }, ...DE },
  { session_id: 'Q4', visitor_id: 'a', ts: '2026-11-11T08:02:00Z', type: 'event', name: 'Signup', url: '/', props: { plan: 'pro', trial: null }, ...DE },
  { session_id: 'Q5', visitor_id: 'd', ts: '2026-11-11T12:00:00Z', type: 'pageview', url: '/blog', ...DE },
  { session_id: 'Q5', visitor_id: 'd', ts: '2026-11-11T12:01:00Z', type: 'event', name: 'Signup', url: '/blog', ...DE },
  { session_id: 'Q6', visitor_id: 'e', ts: '2026-11-11T13:00:00Z', type: 'pageview', url: '/blog/', props: { plan: 'ignored' }, ...GB },
  { session_id: 'Q6', visitor_id: 'e', ts: '2026-11-11T13:01:00Z', type: 'event', name: 'Download', url: '/blog/', props: { file: 'b.pdf', size: 'large' }, ...GB },
  { session_id: 'Q7', visitor_id: 'a', ts: '2026-11-11T15:00:00Z', type: 'pageview', url: '/pricing', ...DE },
  { session_id: 'Q7', visitor_id: 'a', ts: '2026-11-11T15:01:00Z', type: 'event', name: 'Signup', url: '/pricing', props: { plan: 'Pro' }, ...DE },
  { session_id: 'P1', visitor_id: 'f', ts: '2026-11-09T10:00:00Z', type: 'pageview', url: '/pricing', ...DE },
  { session_id: 'P1', visitor_id: 'f', ts: '2026-11-09T10:01:00Z', type: 'event', name: 'Signup', url: '/pricing', props: { plan: 'free' }, ...DE },
  { session_id: 'P2', visitor_id: 'g', ts: '2026-11-08T10:00:00Z', type: 'pageview', url: '/thanks', ...FR },
].map((line) => ({ site_id: 'ST-props', ...line }));

/** The goals of ST-props, as `addGoal` takes them. */
export const PROPS_GOALS = [
  { type: 'event', value: 'Signup' },
  { type: 'page', value: '/thanks*' },
  { type: 'page', value: '/blog/*' },
  { type: 'event', value: 'Purchase' },
] as const;
