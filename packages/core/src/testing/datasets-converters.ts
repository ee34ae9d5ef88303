/**
 * An Umami export and a GA4 BigQuery export written by hand, small enough to compute every
 * expected number of conformance-converters.ts by hand (the comments give the sessions).
 *
 * Umami: the `website_event` columns with the `session` columns joined on each row, as
 * umami-software/umami db/postgresql/schema.prisma at commit 01617e8e2c083ee0ef0dcd72eb866f98cc9303d0
 * defines both tables (website_event: event_id, website_id, session_id, visit_id, created_at,
 * url_path, url_query, referrer_path, referrer_query, referrer_domain, page_title, event_type,
 * event_name, tag; session: browser, os, device, screen, language, country, subdivision1,
 * subdivision2, city; event_data: website_event_id, data_key, string_value, number_value,
 * date_value, data_type) and as db/clickhouse/schema.sql at 7637bed7317c02d517077148c14065f208e6ffc5
 * stores them joined; event types from src/lib/constants.ts (1 pageview, 2 custom event,
 * 3 link event). Times as Umami writes them: `YYYY-MM-DD HH:MM:SS`, UTC.
 *
 * GA4: rows of `events_YYYYMMDD` as `bq extract --destination_format NEWLINE_DELIMITED_JSON`
 * writes them (INT64 as strings), fields of Google's "BigQuery Export schema"
 * (developers.google.com/analytics/bigquery/event-schema): event_timestamp in microseconds,
 * event_params with string_value / int_value, user_pseudo_id, device.category,
 * device.web_info.browser, device.operating_system, geo.country (a name),
 * collected_traffic_source.manual_source / manual_medium / manual_campaign_name / gclid.
 */

const csv = (...rows: string[]): string => `${rows.join('\n')}\n`;

const UMAMI_HEADER =
  'website_id,session_id,visit_id,event_id,hostname,browser,os,device,screen,language,country,subdivision1,subdivision2,city,' +
  'url_path,url_query,referrer_path,referrer_query,referrer_domain,page_title,event_type,event_name,tag,created_at';
const W = 'a1b2c3d4-0000-4000-8000-000000000001';
const S1 = `${W},s1,a1`; // Chrome, Windows 10, desktop, Germany
const S1_SESSION = 'chrome,Windows 10,desktop,1920x1080,de-DE,DE,DE-BE,,Berlin';
const S2_SESSION = 'ios,iOS,mobile,390x844,en-US,US,US-CA,,San Francisco';
const S3_SESSION = 'edge-chromium,Mac OS,laptop,1440x900,fr-FR,,,,';

/**
 * ST-umami (UTC, domain umami.example). Visits (our sessions), visitor = Umami session:
 * - a1 (s1) 05-01 09:00-09:03: `/` tagged news/email/may, `/pricing`, custom event signup (plan=pro). Email, 180 s.
 * - a2 (s1) 05-01 15:00: `/` from www.google.com. Organic Search, bounce.
 * - b1 (s2) 05-01 23:50 to 05-02 00:05: `/blog` from news.ycombinator.com, `/blog/2`. Social, 900 s.
 * - b2 (s2) 05-02 12:00: `/`. Direct, bounce.
 * - c1 (s3) 05-02 08:00-08:02: `/docs` from the site itself, a link event (type 3, left out), custom event download. Direct, 120 s.
 */
export const UMAMI_EVENTS = csv(
  UMAMI_HEADER,
  `${S1},e1,umami.example,${S1_SESSION},/,utm_source=news&utm_medium=email&utm_campaign=may,,,,Home,1,,,2026-05-01 09:00:00`,
  `${S1},e2,umami.example,${S1_SESSION},/pricing,,,,,Pricing,1,,,2026-05-01 09:02:00`,
  `${S1},e3,umami.example,${S1_SESSION},/pricing,,,,,Pricing,2,signup,,2026-05-01 09:03:00`,
  `${W},s1,a2,e4,umami.example,${S1_SESSION},/,,/search,q=umami,www.google.com,Home,1,,,2026-05-01 15:00:00`,
  `${W},s2,b1,e5,umami.example,${S2_SESSION},/blog,,/item,id=1,news.ycombinator.com,Blog,1,,,2026-05-01 23:50:00`,
  `${W},s2,b1,e6,umami.example,${S2_SESSION},/blog/2,,,,,"Blog, part 2",1,,,2026-05-02 00:05:00`,
  `${W},s2,b2,e7,umami.example,${S2_SESSION},/,,,,,Home,1,,,2026-05-02 12:00:00`,
  `${W},s3,c1,e8,umami.example,${S3_SESSION},/docs,,/,,umami.example,Docs,1,,,2026-05-02 08:00:00`,
  `${W},s3,c1,e9,umami.example,${S3_SESSION},/docs,,,,,Docs,3,,,2026-05-02 08:01:00`,
  `${W},s3,c1,e10,umami.example,${S3_SESSION},/docs,,,,,Docs,2,download,,2026-05-02 08:02:00`,
);

/** `event_data` of the export: signup carries plan=pro. */
export const UMAMI_EVENT_DATA = csv(
  'event_data_id,website_id,website_event_id,data_key,string_value,number_value,date_value,data_type,created_at',
  `d1,${W},e3,plan,pro,,,1,2026-05-01 09:03:00`,
);

/** The same events with the session attributes in a `session.csv` of their own (Umami's tables as they are). */
export const UMAMI_SPLIT = {
  'website_event.csv': csv(
    'event_id,website_id,session_id,visit_id,created_at,url_path,url_query,referrer_path,referrer_query,referrer_domain,page_title,event_type,event_name,tag',
    ...UMAMI_EVENTS.trim().split('\n').slice(1).map((row) => {
      const f = row.match(/("[^"]*"|[^,]*)(,|$)/g)!.map((x) => x.replace(/,$/, ''));
      return [f[3], f[0], f[1], f[2], f[23], f[14], f[15], f[16], f[17], f[18], f[19], f[20], f[21], f[22]].join(',');
    }),
  ),
  'session.csv': csv(
    'session_id,website_id,hostname,browser,os,device,screen,language,country,subdivision1,subdivision2,city,created_at',
    `s1,${W},umami.example,${S1_SESSION},2026-05-01 09:00:00`,
    `s2,${W},umami.example,${S2_SESSION},2026-05-01 23:50:00`,
    `s3,${W},umami.example,${S3_SESSION},2026-05-02 08:00:00`,
  ),
  'event_data.csv': UMAMI_EVENT_DATA,
};

const micros = (iso: string): string => `${Date.parse(iso)}000`;
const param = (key: string, value: string | number) => ({ key, value: typeof value === 'number' ? { int_value: String(value) } : { string_value: value } });
const DE_DESKTOP = { device: { category: 'desktop', operating_system: 'Windows', web_info: { browser: 'Chrome' } }, geo: { country: 'Germany' } };
const MM_MOBILE = { device: { category: 'mobile', operating_system: 'iOS', web_info: { browser: 'Safari' } }, geo: { country: 'Myanmar (Burma)' } };

/**
 * ST-ga4 (UTC, domain ga4.example). Sessions (ga_session_id per user_pseudo_id):
 * - u1.100 06-01 10:00-10:03: `/` tagged newsletter/email/june, `/pricing`, custom event sign_up (method=google). Email, 180 s.
 *   Its session_start, first_visit and user_engagement rows are left out.
 * - u2.200 06-01 12:00: `/blog` from www.bing.com (its scroll left out). Organic Search, bounce.
 * - u2.300 06-02 09:00: `/` with a gclid. Paid Search, bounce.
 * - a page_view without user_pseudo_id (consent mode): left out.
 */
export const GA4_ROWS = [
  { event_date: '20260601', event_timestamp: micros('2026-06-01T10:00:00Z'), event_name: 'session_start', event_params: [param('ga_session_id', 100)], user_pseudo_id: 'u1', ...DE_DESKTOP },
  { event_date: '20260601', event_timestamp: micros('2026-06-01T10:00:00Z'), event_name: 'first_visit', event_params: [param('ga_session_id', 100)], user_pseudo_id: 'u1', ...DE_DESKTOP },
  {
    event_date: '20260601', event_timestamp: micros('2026-06-01T10:00:00Z'), event_name: 'page_view', user_pseudo_id: 'u1', ...DE_DESKTOP,
    event_params: [param('page_location', 'https://ga4.example/'), param('ga_session_id', 100), param('page_title', 'Home')],
    collected_traffic_source: { manual_source: 'newsletter', manual_medium: 'email', manual_campaign_name: 'june', gclid: null },
  },
  {
    event_date: '20260601', event_timestamp: micros('2026-06-01T10:01:00Z'), event_name: 'page_view', user_pseudo_id: 'u1', ...DE_DESKTOP,
    event_params: [param('page_location', 'https://ga4.example/pricing'), param('page_referrer', 'https://ga4.example/'), param('ga_session_id', 100)],
  },
  { event_date: '20260601', event_timestamp: micros('2026-06-01T10:02:00Z'), event_name: 'user_engagement', event_params: [param('ga_session_id', 100), param('engagement_time_msec', 60000)], user_pseudo_id: 'u1', ...DE_DESKTOP },
  {
    event_date: '20260601', event_timestamp: micros('2026-06-01T10:03:00Z'), event_name: 'sign_up', user_pseudo_id: 'u1', ...DE_DESKTOP,
    event_params: [param('page_location', 'https://ga4.example/pricing'), param('ga_session_id', 100), param('method', 'google'), param('engagement_time_msec', 1200)],
  },
  {
    event_date: '20260601', event_timestamp: micros('2026-06-01T12:00:00Z'), event_name: 'page_view', user_pseudo_id: 'u2', ...MM_MOBILE,
    event_params: [param('page_location', 'https://ga4.example/blog'), param('page_referrer', 'https://www.bing.com/'), param('ga_session_id', 200)],
  },
  { event_date: '20260601', event_timestamp: micros('2026-06-01T12:00:30Z'), event_name: 'scroll', event_params: [param('ga_session_id', 200), param('percent_scrolled', 90)], user_pseudo_id: 'u2', ...MM_MOBILE },
  {
    event_date: '20260602', event_timestamp: micros('2026-06-02T09:00:00Z'), event_name: 'page_view', user_pseudo_id: 'u2', ...MM_MOBILE,
    event_params: [param('page_location', 'https://ga4.example/'), param('ga_session_id', 300)],
    collected_traffic_source: { gclid: 'abc' },
  },
  { event_date: '20260602', event_timestamp: micros('2026-06-02T10:00:00Z'), event_name: 'page_view', user_pseudo_id: null, event_params: [param('page_location', 'https://ga4.example/')], ...MM_MOBILE },
];

/** The GA4 rows as newline-delimited JSON. */
export const GA4_EXPORT = `${GA4_ROWS.map((row) => JSON.stringify(row)).join('\n')}\n`;
