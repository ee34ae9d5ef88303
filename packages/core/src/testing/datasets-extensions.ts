/**
 * Datasets of the query extensions' conformance cases (filters, compare,
 * interval), in the import format. Every expected number in
 * `conformance-extensions.ts` was worked out by hand from these lines; the
 * comments list the sessions they form (explicit session ids, so nothing
 * depends on the 30-minute rule).
 */

const DE_DESKTOP = { country_code: 'DE', device_type: 'Desktop', browser: 'Chrome', os: 'Windows' };
const DE_MOBILE = { country_code: 'DE', device_type: 'Mobile', browser: 'Chrome', os: 'Android' };
const AT_MOBILE = { country_code: 'AT', device_type: 'Mobile', browser: 'Safari', os: 'iOS' };
const US_DESKTOP = { country_code: 'US', device_type: 'Desktop', browser: 'Firefox', os: 'Linux' };
const GB_DESKTOP = { country_code: 'GB', device_type: 'Desktop', browser: 'Edge', os: 'Windows' };
const FR_DESKTOP = { country_code: 'FR', device_type: 'Desktop', browser: 'Safari', os: 'macOS' };
const GOOGLE = 'https://www.google.com/search?q=ext';

/**
 * ST-ext, time zone UTC. The range of most cases is 2026-11-10 (Tue) .. 11-11 (Wed).
 * Gaps (time on page) are to the next event of the session.
 * - E1 a 11-10 09:00 `/` (google: Organic Search, DE Desktop) gap 60, 09:01 `/pricing` gap 60, 09:02 event signup. 120 s.
 * - E2 b 11-10 10:00 `/pricing` (direct, AT Mobile). Bounce.
 * - E3 c 11-10 23:50 `/blog` (utm newsletter/email/nov: Email, direct source, US) gap 900, 11-11 00:05 `/pricing`. 900 s, crosses midnight.
 * - E4 a 11-11 08:00 `/docs` (direct, DE Desktop) gap 30, 08:00:30 event download. 30 s, no bounce (custom event).
 * - E5 d 11-11 12:00 `/` (google, DE Mobile) gap 600, 12:10 `/docs` gap 600, 12:20 `/`. 1200 s.
 * - E6 g 11-11 15:00 `/` (direct, GB Desktop). Bounce.
 * The days before (the previous period of 11-10..11-11 is 11-08..11-09) and October:
 * - P1 e 11-09 10:00 `/pricing` (direct, DE Desktop). Bounce.
 * - P2 f 11-08 15:00 `/` (google, FR Desktop) gap 300, 15:05 `/pricing` gap 60, 15:06 event signup. 360 s.
 * - P3 h 10-31 12:00 `/` (direct, US Desktop). Bounce.
 */
export const EXT = [
  { session_id: 'E1', visitor_id: 'a', ts: '2026-11-10T09:00:00Z', type: 'pageview', url: '/', referrer: GOOGLE, ...DE_DESKTOP },
  { session_id: 'E1', visitor_id: 'a', ts: '2026-11-10T09:01:00Z', type: 'pageview', url: '/pricing', ...DE_DESKTOP },
  { session_id: 'E1', visitor_id: 'a', ts: '2026-11-10T09:02:00Z', type: 'event', name: 'signup', url: '/pricing', ...DE_DESKTOP },
  { session_id: 'E2', visitor_id: 'b', ts: '2026-11-10T10:00:00Z', type: 'pageview', url: '/pricing', ...AT_MOBILE },
  { session_id: 'E3', visitor_id: 'c', ts: '2026-11-10T23:50:00Z', type: 'pageview', url: '/blog?utm_source=newsletter&utm_medium=email&utm_campaign=nov', ...US_DESKTOP },
  { session_id: 'E3', visitor_id: 'c', ts: '2026-11-11T00:05:00Z', type: 'pageview', url: '/pricing', ...US_DESKTOP },
  { session_id: 'E4', visitor_id: 'a', ts: '2026-11-11T08:00:00Z', type: 'pageview', url: '/docs', ...DE_DESKTOP },
  { session_id: 'E4', visitor_id: 'a', ts: '2026-11-11T08:00:30Z', type: 'event', name: 'download', url: '/docs', ...DE_DESKTOP },
  { session_id: 'E5', visitor_id: 'd', ts: '2026-11-11T12:00:00Z', type: 'pageview', url: '/', referrer: GOOGLE, ...DE_MOBILE },
  { session_id: 'E5', visitor_id: 'd', ts: '2026-11-11T12:10:00Z', type: 'pageview', url: '/docs', ...DE_MOBILE },
  { session_id: 'E5', visitor_id: 'd', ts: '2026-11-11T12:20:00Z', type: 'pageview', url: '/', ...DE_MOBILE },
  { session_id: 'E6', visitor_id: 'g', ts: '2026-11-11T15:00:00Z', type: 'pageview', url: '/', ...GB_DESKTOP },
  { session_id: 'P1', visitor_id: 'e', ts: '2026-11-09T10:00:00Z', type: 'pageview', url: '/pricing', ...DE_DESKTOP },
  { session_id: 'P2', visitor_id: 'f', ts: '2026-11-08T15:00:00Z', type: 'pageview', url: '/', referrer: GOOGLE, ...FR_DESKTOP },
  { session_id: 'P2', visitor_id: 'f', ts: '2026-11-08T15:05:00Z', type: 'pageview', url: '/pricing', ...FR_DESKTOP },
  { session_id: 'P2', visitor_id: 'f', ts: '2026-11-08T15:06:00Z', type: 'event', name: 'signup', url: '/pricing', ...FR_DESKTOP },
  { session_id: 'P3', visitor_id: 'h', ts: '2026-10-31T12:00:00Z', type: 'pageview', url: '/', ...US_DESKTOP },
].map((line) => ({ site_id: 'ST-ext', ...line }));

/**
 * ST-leap, time zone UTC: the same calendar dates a year apart around 29 February.
 * - L1 x 2028-02-29 10:00 `/`. Bounce.
 * - L2 y 2028-03-01 10:00 `/a`. Bounce.
 * - L3 z 2027-02-28 10:00 `/` gap 60, 10:01 `/b`. 60 s.
 * - L4 w 2027-03-01 09:00 `/a`. Bounce.
 * - L5 v 2024-02-29 12:00 `/`. Bounce.
 */
export const LEAP = [
  { session_id: 'L1', visitor_id: 'x', ts: '2028-02-29T10:00:00Z', type: 'pageview', url: '/' },
  { session_id: 'L2', visitor_id: 'y', ts: '2028-03-01T10:00:00Z', type: 'pageview', url: '/a' },
  { session_id: 'L3', visitor_id: 'z', ts: '2027-02-28T10:00:00Z', type: 'pageview', url: '/' },
  { session_id: 'L3', visitor_id: 'z', ts: '2027-02-28T10:01:00Z', type: 'pageview', url: '/b' },
  { session_id: 'L4', visitor_id: 'w', ts: '2027-03-01T09:00:00Z', type: 'pageview', url: '/a' },
  { session_id: 'L5', visitor_id: 'v', ts: '2024-02-29T12:00:00Z', type: 'pageview', url: '/' },
].map((line) => ({ site_id: 'ST-leap', ...US_DESKTOP, ...line }));

/**
 * ST-hours, America/New_York, on 2026-11-01, when 02:00 EDT (-04:00) becomes 01:00 EST (-05:00):
 * the local hour 01:00 happens twice.
 * - H1 p 05:30Z = 01:30 EDT `/`. Bounce.
 * - H2 p 06:15Z = 01:15 EST `/x`, 06:20Z = 01:20 EST `/y`. 300 s (same visitor, a new session).
 * - H3 q 06:40Z = 01:40 EST `/`. Bounce.
 * - H4 r 07:50Z = 02:50 EST `/`, 08:05Z = 03:05 EST `/z`. 900 s; its second pageview is in the next hour.
 */
export const HOURS = [
  { session_id: 'H1', visitor_id: 'p', ts: '2026-11-01T05:30:00Z', type: 'pageview', url: '/' },
  { session_id: 'H2', visitor_id: 'p', ts: '2026-11-01T06:15:00Z', type: 'pageview', url: '/x' },
  { session_id: 'H2', visitor_id: 'p', ts: '2026-11-01T06:20:00Z', type: 'pageview', url: '/y' },
  { session_id: 'H3', visitor_id: 'q', ts: '2026-11-01T06:40:00Z', type: 'pageview', url: '/' },
  { session_id: 'H4', visitor_id: 'r', ts: '2026-11-01T07:50:00Z', type: 'pageview', url: '/' },
  { session_id: 'H4', visitor_id: 'r', ts: '2026-11-01T08:05:00Z', type: 'pageview', url: '/z' },
].map((line) => ({ site_id: 'ST-hours', ...US_DESKTOP, ...line }));

/**
 * ST-kolkata, Asia/Kolkata (+05:30): local hours start at half past in UTC.
 * - K1 k1 04:29Z = 09:59 IST `/`. Bounce.
 * - K2 k2 04:30Z = 10:00 IST `/`. Bounce.
 */
export const KOLKATA = [
  { session_id: 'K1', visitor_id: 'k1', ts: '2026-11-02T04:29:00Z', type: 'pageview', url: '/' },
  { session_id: 'K2', visitor_id: 'k2', ts: '2026-11-02T04:30:00Z', type: 'pageview', url: '/' },
].map((line) => ({ site_id: 'ST-kolkata', ...US_DESKTOP, ...line }));
