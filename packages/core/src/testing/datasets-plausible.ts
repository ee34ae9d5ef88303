/**
 * A Plausible CSV export written by hand, small enough to compute every expected number of
 * conformance-imported.ts by hand (the comments there give the sums).
 *
 * Columns and file names as Plausible's exporter writes them today: plausible/analytics
 * lib/plausible/exports.ex at commit 06eb5d3b89243361e85c17d09a2eeeb0760769cc (export_queries:
 * `imported_<table>_<first>_<last>.csv`; visitors: date, visitors, pageviews, bounces, visits,
 * visit_duration; sources with referrer and utm_source; pages with visits, scroll depth and
 * total_time_on_page(_visits); custom_events with link_url and path; locations with region
 * and city; browsers and operating systems with their versions). `LEGACY` uses the older column
 * sets its CSV importer read: lib/plausible/imported/csv_importer.ex at commit
 * 0c191cd3a1241bdbd0dce8867eee69427161551d (pages with exits and time_on_page, sources without
 * referrer, utm_source or pageviews, browsers and operating systems without versions).
 *
 * Site ST-plaus (UTC, domain plaus.example); the export covers 2026-03-01 to 2026-03-03. The
 * site has native events on 2026-03-03 (so that imported day does not count) and 2026-03-04
 * (`PLAUSIBLE_NATIVE`).
 */

const lines = (...rows: string[]): string => `${rows.join('\n')}\n`;
const RANGE = '20260301_20260303';

export const PLAUSIBLE_EXPORT: Record<string, string> = {
  [`imported_visitors_${RANGE}.csv`]: lines(
    'date,visitors,pageviews,bounces,visits,visit_duration',
    '2026-03-01,3,5,2,4,120',
    '2026-03-02,2,4,1,2,300',
    '2026-03-03,10,10,10,10,0',
  ),
  [`imported_sources_${RANGE}.csv`]: lines(
    'date,source,referrer,utm_source,utm_medium,utm_campaign,utm_content,utm_term,pageviews,visitors,visits,visit_duration,bounces',
    '2026-03-01,Direct / None,,,,,,,2,2,2,0,1',
    '2026-03-01,Google,www.google.com,,,,,,3,1,2,120,1',
    '2026-03-02,Newsletter,,newsletter,email,spring,,,4,2,2,300,1',
    '2026-03-03,Direct / None,,,,,,,10,10,10,0,10',
  ),
  [`imported_pages_${RANGE}.csv`]: lines(
    'date,hostname,page,visits,visitors,pageviews,total_scroll_depth,total_scroll_depth_visits,total_time_on_page,total_time_on_page_visits',
    '2026-03-01,plaus.example,/,3,3,3,150,2,60,2',
    '2026-03-01,plaus.example,/pricing,2,2,2,,,,',
    '2026-03-02,plaus.example,/,2,2,2,100,2,40,1',
    '2026-03-02,plaus.example,/blog,1,1,2,50,1,90,1',
    '2026-03-03,plaus.example,/,10,10,10,0,0,0,0',
  ),
  [`imported_entry_pages_${RANGE}.csv`]: lines(
    'date,entry_page,visitors,entrances,visit_duration,bounces,pageviews',
    '2026-03-01,/,2,3,120,1,4',
    '2026-03-01,/pricing,1,1,0,1,1',
    '2026-03-02,/,1,1,0,1,1',
    '2026-03-02,/blog,1,1,300,0,3',
    '2026-03-03,/,10,10,0,10,10',
  ),
  [`imported_exit_pages_${RANGE}.csv`]: lines(
    'date,exit_page,visitors,visit_duration,exits,bounces,pageviews',
    '2026-03-01,/pricing,2,0,2,1,2',
    '2026-03-02,/blog,1,300,1,0,3',
  ),
  [`imported_custom_events_${RANGE}.csv`]: lines(
    'date,name,link_url,path,visitors,events',
    '2026-03-01,Signup,,,1,1',
    '2026-03-02,Outbound Link: Click,https://x.example/a,,1,1',
    '2026-03-02,Outbound Link: Click,https://x.example/b,,1,2',
    '2026-03-02,engagement,,,2,5',
  ),
  [`imported_locations_${RANGE}.csv`]: lines(
    'date,country,region,city,visitors,visits,visit_duration,bounces,pageviews',
    '2026-03-01,DE,DE-BE,2950159,2,3,120,1,4',
    '2026-03-01,US,US-CA,0,1,1,0,1,1',
    '2026-03-02,DE,DE-BE,2950159,1,1,300,0,3',
    '2026-03-02,,,0,1,1,0,1,1',
    '2026-03-03,DE,,0,10,10,0,10,10',
  ),
  [`imported_devices_${RANGE}.csv`]: lines(
    'date,device,visitors,visits,visit_duration,bounces,pageviews',
    '2026-03-01,Desktop,2,3,120,1,4',
    '2026-03-01,Mobile,1,1,0,1,1',
    '2026-03-02,Laptop,1,1,300,0,3',
    '2026-03-02,Tablet,1,1,0,1,1',
  ),
  [`imported_browsers_${RANGE}.csv`]: lines(
    'date,browser,browser_version,visitors,visits,visit_duration,bounces,pageviews',
    '2026-03-01,Chrome,120.0,1,2,60,0,3',
    '2026-03-01,Chrome,121.0,1,1,60,1,1',
    '2026-03-01,Safari,17.0,1,1,0,1,1',
    '2026-03-02,Firefox,123.0,2,2,300,1,4',
  ),
  [`imported_operating_systems_${RANGE}.csv`]: lines(
    'date,operating_system,operating_system_version,visitors,visits,visit_duration,bounces,pageviews',
    '2026-03-01,Mac,14,2,3,120,1,4',
    '2026-03-01,iOS,17.1,1,1,0,1,1',
    '2026-03-02,GNU/Linux,,2,2,300,1,4',
  ),
};

/**
 * The native events of ST-plaus, in the import format: session A (v9, 2026-03-03 10:00, `/`
 * from Google, a bounce) and session B (v9, 2026-03-04 10:00 `/pricing` then the custom
 * event Signup at 10:01: 60 s, no bounce); both from Germany, desktop Firefox on Linux.
 */
export const PLAUSIBLE_NATIVE = [
  { ts: '2026-03-03T10:00:00Z', type: 'pageview', url: '/', referrer: 'https://www.google.com/' },
  { ts: '2026-03-04T10:00:00Z', type: 'pageview', url: '/pricing' },
  { ts: '2026-03-04T10:01:00Z', type: 'event', name: 'Signup', url: '/pricing' },
].map((line) => ({ site_id: 'ST-plaus', visitor_id: 'v9', country_code: 'DE', device_type: 'Desktop', browser: 'Firefox', os: 'Linux', ...line }));

/**
 * An export in the older column sets (csv_importer.ex at 0c191cd), for ST-legacy (UTC), one day:
 * 2026-02-01. Pages: `/` 4 pageviews of which 1 exit, 90 s to the next pageview in total, so 3
 * timed views averaging 30 s. Sources without referrer: `Google` is kept as Plausible names it.
 */
export const PLAUSIBLE_LEGACY: Record<string, string> = {
  'imported_visitors_20260201_20260201.csv': lines('date,visitors,pageviews,bounces,visits,visit_duration', '2026-02-01,2,4,0,2,90'),
  'imported_sources_20260201_20260201.csv': lines(
    'date,source,utm_medium,utm_campaign,utm_content,utm_term,visitors,visits,visit_duration,bounces',
    '2026-02-01,Google,,,,,2,2,90,0',
  ),
  'imported_pages_20260201_20260201.csv': lines('date,hostname,page,visitors,pageviews,exits,time_on_page', '2026-02-01,legacy.example,/,2,4,1,90'),
  'imported_browsers_20260201_20260201.csv': lines('date,browser,visitors,visits,visit_duration,bounces', '2026-02-01,Chrome,2,2,90,0'),
};
