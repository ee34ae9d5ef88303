/**
 * The dataset of the funnel conformance cases (funnels.md), in the import format, and the late
 * writes of one more site as the storage receives them. Every expected number in
 * `conformance-funnels.ts` was worked out by hand from these lines; the comments list the sessions
 * (explicit session ids) and how far each gets through each funnel.
 */
import type { StoredEvent } from '../storage/types.js';
import type { FunnelStep } from '../types.js';

const DE = { country_code: 'DE', device_type: 'Desktop', browser: 'Chrome', os: 'Windows' };
const AT = { country_code: 'AT', device_type: 'Mobile', browser: 'Safari', os: 'iOS' };
const US = { country_code: 'US', device_type: 'Desktop', browser: 'Firefox', os: 'Linux' };
const GB = { country_code: 'GB', device_type: 'Desktop', browser: 'Edge', os: 'Windows' };
const FR = { country_code: 'FR', device_type: 'Desktop', browser: 'Safari', os: 'macOS' };

/** Saved as "Pricing to signup": the pricing page, then the signup page, then the signup event. */
export const PRICING_STEPS: readonly FunnelStep[] = [{ page: '/pricing' }, { page: '/signup' }, { event: 'signup' }];
/** Ad hoc, one step twice: `/a`, `/b`, `/a` again. */
export const REPEAT_STEPS: readonly FunnelStep[] = [{ page: '/a' }, { page: '/b' }, { page: '/a' }];
/** Saved as "Docs to download": a page under /docs, then the download event. */
export const DOCS_STEPS: readonly FunnelStep[] = [{ page: '/docs*' }, { event: 'download' }];

/** The funnels saved for ST-funnel, as `addFunnel` takes them. */
export const SAVED_FUNNELS = [
  { name: 'Pricing to signup', steps: PRICING_STEPS },
  { name: 'Docs to download', steps: DOCS_STEPS },
] as const;

const at = (time: string) => `2026-11-${time}Z`;

/**
 * ST-funnel, time zone UTC. The range of most cases is 2026-11-10 .. 11-11, its previous period
 * 11-08 .. 11-09. Levels: how far each session gets through PRICING / REPEAT / DOCS.
 * - F1 a (DE) 11-10 09:00 `/pricing`, 09:01 `/blog`, 09:02 `/signup`, 09:03 signup {plan: pro}. 3 / 0 / 0.
 * - F2 b (AT) 11-10 10:00 `/signup`, 10:01 `/pricing`, 10:02 `/signup`, 10:03 signup {plan: free}: step 2 before step 1 and after it. 3 / 0 / 0.
 * - F3 c (US) 11-10 10:30 `/signup`, 10:31 `/pricing`: step 2 only before step 1. 1 / 0 / 0.
 * - F4 d (DE) 11-10 11:00 `/pricing`, 11:01 `/a`, 11:02 `/pricing`, 11:03 `/b`, 11:04 `/signup`, 11:05 `/a`: two funnels interleaved. 2 / 3 / 0.
 * - F5 e (GB) 11-10 12:00 `/a`, 12:01 `/b`. 0 / 2 / 0.
 * - F6 f (GB) 11-10 12:30 `/a`, 12:31 `/a`, 12:32 `/b`: both `/a` before `/b`. 0 / 2 / 0.
 * - F7 a (DE) 11-10 15:00 `/pricing`: a's second session that day. 1 / 0 / 0.
 * - F8 g (FR) 11-11 08:00:00 `/signup`, then (next line, a greater seq) 08:00:00 `/pricing`. 1 / 0 / 0.
 * - F9 h (FR) 11-11 09:00:00 `/pricing`, then 09:00:00 `/signup`, 09:01 signup. 3 / 0 / 0.
 * - F10 i (US) 11-11 23:50 `/pricing`, 11-12 00:05 `/signup`, 00:06 signup {plan: pro}: crosses midnight and the range's end. 3 / 0 / 0.
 * - F11 j (DE) 11-11 14:00 `/docs/install`, 14:01 download {file: x}. 0 / 0 / 2.
 * - F12 a (DE) 11-11 10:00 `/pricing`, 10:01 `/signup`. 2 / 0 / 0.
 * - F13 k (AT) 11-11 16:00 `/blog`. 0 / 0 / 0.
 * - P1 m (DE) 11-09 23:55 `/pricing`, 11-10 00:05 `/signup`: starts in the previous period. 2 / 0 / 0.
 * - P2 n (GB) 11-08 10:00 `/pricing`, 10:01 signup (no `/signup` page between). 1 / 0 / 0.
 */
export const FUNNEL = [
  { session_id: 'F1', visitor_id: 'a', ts: at('10T09:00:00'), type: 'pageview', url: '/pricing', ...DE },
  { session_id: 'F1', visitor_id: 'a', ts: at('10T09:01:00'), type: 'pageview', url: '/blog', ...DE },
  { session_id: 'F1', visitor_id: 'a', ts: at('10T09:02:00'), type: 'pageview', url: '/signup', ...DE },
  { session_id: 'F1', visitor_id: 'a', ts: at('10T09:03:00'), type: 'event', name: 'signup', url: '/signup', props: { plan: 'pro' }, ...DE },
  { session_id: 'F2', visitor_id: 'b', ts: at('10T10:00:00'), type: 'pageview', url: '/signup', ...AT },
  { session_id: 'F2', visitor_id: 'b', ts: at('10T10:01:00'), type: 'pageview', url: '/pricing', ...AT },
  { session_id: 'F2', visitor_id: 'b', ts: at('10T10:02:00'), type: 'pageview', url: '/signup', ...AT },
  { session_id: 'F2', visitor_id: 'b', ts: at('10T10:03:00'), type: 'event', name: 'signup', url: '/signup', props: { plan: 'free' }, ...AT },
  { session_id: 'F3', visitor_id: 'c', ts: at('10T10:30:00'), type: 'pageview', url: '/signup', ...US },
  { session_id: 'F3', visitor_id: 'c', ts: at('10T10:31:00'), type: 'pageview', url: '/pricing', ...US },
  { session_id: 'F4', visitor_id: 'd', ts: at('10T11:00:00'), type: 'pageview', url: '/pricing', ...DE },
  { session_id: 'F4', visitor_id: 'd', ts: at('10T11:01:00'), type: 'pageview', url: '/a', ...DE },
  { session_id: 'F4', visitor_id: 'd', ts: at('10T11:02:00'), type: 'pageview', url: '/pricing', ...DE },
  { session_id: 'F4', visitor_id: 'd', ts: at('10T11:03:00'), type: 'pageview', url: '/b', ...DE },
  { session_id: 'F4', visitor_id: 'd', ts: at('10T11:04:00'), type: 'pageview', url: '/signup', ...DE },
  { session_id: 'F4', visitor_id: 'd', ts: at('10T11:05:00'), type: 'pageview', url: '/a', ...DE },
  { session_id: 'F5', visitor_id: 'e', ts: at('10T12:00:00'), type: 'pageview', url: '/a', ...GB },
  { session_id: 'F5', visitor_id: 'e', ts: at('10T12:01:00'), type: 'pageview', url: '/b', ...GB },
  { session_id: 'F6', visitor_id: 'f', ts: at('10T12:30:00'), type: 'pageview', url: '/a', ...GB },
  { session_id: 'F6', visitor_id: 'f', ts: at('10T12:31:00'), type: 'pageview', url: '/a', ...GB },
  { session_id: 'F6', visitor_id: 'f', ts: at('10T12:32:00'), type: 'pageview', url: '/b', ...GB },
  { session_id: 'F7', visitor_id: 'a', ts: at('10T15:00:00'), type: 'pageview', url: '/pricing', ...DE },
  { session_id: 'F8', visitor_id: 'g', ts: at('11T08:00:00'), type: 'pageview', url: '/signup', ...FR },
  { session_id: 'F8', visitor_id: 'g', ts: at('11T08:00:00'), type: 'pageview', url: '/pricing', ...FR },
  { session_id: 'F9', visitor_id: 'h', ts: at('11T09:00:00'), type: 'pageview', url: '/pricing', ...FR },
  { session_id: 'F9', visitor_id: 'h', ts: at('11T09:00:00'), type: 'pageview', url: '/signup', ...FR },
  { session_id: 'F9', visitor_id: 'h', ts: at('11T09:01:00'), type: 'event', name: 'signup', url: '/signup', ...FR },
  { session_id: 'F10', visitor_id: 'i', ts: at('11T23:50:00'), type: 'pageview', url: '/pricing', ...US },
  { session_id: 'F10', visitor_id: 'i', ts: at('12T00:05:00'), type: 'pageview', url: '/signup', ...US },
  { session_id: 'F10', visitor_id: 'i', ts: at('12T00:06:00'), type: 'event', name: 'signup', url: '/signup', props: { plan: 'pro' }, ...US },
  { session_id: 'F11', visitor_id: 'j', ts: at('11T14:00:00'), type: 'pageview', url: '/docs/install', ...DE },
  { session_id: 'F11', visitor_id: 'j', ts: at('11T14:01:00'), type: 'event', name: 'download', url: '/docs/install', props: { file: 'x' }, ...DE },
  { session_id: 'F12', visitor_id: 'a', ts: at('11T10:00:00'), type: 'pageview', url: '/pricing', ...DE },
  { session_id: 'F12', visitor_id: 'a', ts: at('11T10:01:00'), type: 'pageview', url: '/signup', ...DE },
  { session_id: 'F13', visitor_id: 'k', ts: at('11T16:00:00'), type: 'pageview', url: '/blog', ...AT },
  { session_id: 'P1', visitor_id: 'm', ts: at('09T23:55:00'), type: 'pageview', url: '/pricing', ...DE },
  { session_id: 'P1', visitor_id: 'm', ts: at('10T00:05:00'), type: 'pageview', url: '/signup', ...DE },
  { session_id: 'P2', visitor_id: 'n', ts: at('08T10:00:00'), type: 'pageview', url: '/pricing', ...GB },
  { session_id: 'P2', visitor_id: 'n', ts: at('08T10:01:00'), type: 'event', name: 'signup', url: '/pricing', ...GB },
].map((line) => ({ site_id: 'ST-funnel', ...line }));

/**
 * ST-flong (UTC): sessions months apart, for long ranges (a store may read a long range in parts
 * of days: the ClickHouse store reads 31 days a query, and 01-05 .. 03-20 is three parts, the
 * first ending on 02-04). Levels through PRICING:
 * - G1 p (DE) 01-05 10:00 `/pricing`, 10:01 `/signup`. 2.
 * - G2 q (DE) 02-04 23:50 `/pricing`, 02-05 00:05 `/signup`, 00:06 signup: starts on the first part's last day and ends in the second. 3.
 * - G3 p (DE) 03-20 09:00 `/pricing`: p again, on another day. 1.
 * - G4 r (US) 03-20 09:30 `/signup`. 0.
 */
export const LONG_FUNNEL = [
  { session_id: 'G1', visitor_id: 'p', ts: '2026-01-05T10:00:00Z', type: 'pageview', url: '/pricing', ...DE },
  { session_id: 'G1', visitor_id: 'p', ts: '2026-01-05T10:01:00Z', type: 'pageview', url: '/signup', ...DE },
  { session_id: 'G2', visitor_id: 'q', ts: '2026-02-04T23:50:00Z', type: 'pageview', url: '/pricing', ...DE },
  { session_id: 'G2', visitor_id: 'q', ts: '2026-02-05T00:05:00Z', type: 'pageview', url: '/signup', ...DE },
  { session_id: 'G2', visitor_id: 'q', ts: '2026-02-05T00:06:00Z', type: 'event', name: 'signup', url: '/signup', ...DE },
  { session_id: 'G3', visitor_id: 'p', ts: '2026-03-20T09:00:00Z', type: 'pageview', url: '/pricing', ...DE },
  { session_id: 'G4', visitor_id: 'r', ts: '2026-03-20T09:30:00Z', type: 'pageview', url: '/signup', ...US },
].map((line) => ({ site_id: 'ST-flong', ...line }));

/** One event of ST-flate as a write delivers it (the site's time zone is UTC). */
const late = (session: string, time: string, path: string, seq: number, event?: string): StoredEvent => {
  const ts = Date.parse(`2026-11-${time}Z`);
  return {
    siteId: 'ST-flate', ts, day: new Date(ts).toISOString().slice(0, 10), type: event ? 'event' : 'pageview', name: event ?? '', path, visitorId: `v-${session}`,
    sessionId: session, seq, entryPath: path, referrerSource: 'Direct / None', channel: 'Direct', utmSource: '', utmMedium: '', utmCampaign: '',
    countryCode: 'DE', deviceType: 'Desktop', browser: 'Firefox', os: 'Linux',
  };
};

/**
 * ST-flate (UTC), written with `Storage.writeEvents` in this order, so events arrive late, out
 * of order, and with equal times in another order than their `seq`:
 * - L1 (v-L1): 11-20 10:00:00 `/b` seq 30; then 10:00:00 `/a` seq 20 and 10:05 signup seq 40; last
 *   its true first event, 09:55 `/x` seq 10. In record order: `/x`, `/a`, `/b`, signup.
 * - L2 (v-L2): 11-20 00:10 `/pricing` seq 50; then its true first event, 11-19 23:58 `/a` seq 45,
 *   which moves its start to 11-19.
 * - L3 (v-L3): 11-20 12:00:00 `/b` and then `/a`, both seq 60 (neither comes after the other); then
 *   12:01 `/b` seq 61.
 */
export const LATE_WRITES: readonly (readonly StoredEvent[])[] = [
  [late('L1', '20T10:00:00', '/b', 30), late('L2', '20T00:10:00', '/pricing', 50)],
  [late('L1', '20T10:00:00', '/a', 20), late('L1', '20T10:05:00', '/b', 40, 'signup'), late('L3', '20T12:00:00', '/b', 60), late('L3', '20T12:00:00', '/a', 60)],
  [late('L1', '20T09:55:00', '/x', 10), late('L2', '19T23:58:00', '/a', 45), late('L3', '20T12:01:00', '/b', 61)],
];
