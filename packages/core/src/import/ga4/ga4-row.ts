/**
 * One row of a Google Analytics 4 BigQuery export (`events_YYYYMMDD`, as
 * `bq extract --destination_format NEWLINE_DELIMITED_JSON` writes it: INT64 values as strings,
 * NULL fields absent or null) as one of our import lines, or a row left out and why. Fields as
 * Google's "BigQuery Export schema" names them: event_timestamp (microseconds, UTC),
 * event_name, event_params[{key, value{string_value, int_value, float_value, double_value}}],
 * user_pseudo_id, device{category, operating_system, browser, web_info{browser}},
 * geo{country}, collected_traffic_source{manual_source, manual_medium, manual_campaign_name, gclid}.
 */
import { countryCodeOfName } from '../../derive/country-names.js';

/**
 * GA4's automatically collected events that are not pageviews: they describe sessions and
 * engagement GA4 measures itself, not anything the site chose to record, so they are not
 * custom events (docs/import-format.md).
 */
export const GA4_AUTOMATIC_EVENTS = new Set(['session_start', 'first_visit', 'user_engagement', 'scroll']);

/** Parameters GA4 sets on every event itself: not a custom event's properties. */
const GA4_OWN_PARAMETERS = new Set([
  'page_location', 'page_referrer', 'page_title', 'ga_session_id', 'ga_session_number', 'engagement_time_msec', 'session_engaged',
  'engaged_session_event', 'entrances', 'ignore_referrer', 'batch_page_id', 'batch_ordering_id', 'debug_mode', 'synthetic_bundle',
  'source', 'medium', 'campaign', 'term', 'content', 'gclid', 'dclid', 'srsltid', 'campaign_id',
]);

const DEVICES: Record<string, string> = { desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet' };

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const str = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** An event parameter's value as text: its string, integer, or floating-point value, whichever is set. */
function paramValue(value: unknown): string | undefined {
  const v = obj(value);
  for (const field of ['string_value', 'int_value', 'double_value', 'float_value']) {
    const x = v[field];
    if (x !== null && x !== undefined && x !== '') return typeof x === 'number' ? String(x) : str(x);
  }
  return undefined;
}

/** The row as an import line's fields (`event`), or why it is left out (`skip`), or the rule it breaks (`reason`). */
export function ga4Event(row: Json, siteId: string): { event: Json } | { skip: string } | { reason: string } {
  const name = str(row.event_name);
  if (name === '') return { reason: 'event_name is required' };
  if (GA4_AUTOMATIC_EVENTS.has(name)) return { skip: `${name}: an event GA4 collects by itself, not a pageview or custom event` };
  const micros = str(row.event_timestamp);
  if (!/^\d{1,19}$/.test(micros)) return { reason: 'event_timestamp must be microseconds since 1970 (an integer)' };
  const visitor = str(row.user_pseudo_id);
  if (visitor === '') return { skip: 'no user_pseudo_id (GA4 consent mode without analytics storage)' };
  const params = new Map<string, string>();
  if (Array.isArray(row.event_params)) {
    for (const p of row.event_params) {
      const key = str(obj(p).key);
      const value = paramValue(obj(p).value);
      if (key !== '' && value !== undefined) params.set(key, value);
    }
  }
  const traffic = obj(row.collected_traffic_source);
  let url = params.get('page_location') ?? '';
  const gclid = str(traffic.gclid) || (params.get('gclid') ?? '');
  if (gclid !== '' && url !== '' && !/[?&]gclid=/.test(url)) url += `${url.includes('?') ? '&' : '?'}gclid=${encodeURIComponent(gclid)}`;
  const device = obj(row.device);
  const line: Json = {
    site_id: siteId,
    ts: new Date(Math.floor(Number(micros) / 1000)).toISOString(),
    type: name === 'page_view' ? 'pageview' : 'event',
    visitor_id: visitor,
    referrer: params.get('page_referrer') ?? '',
    device_type: DEVICES[str(device.category).toLowerCase()] ?? 'Unknown',
    browser: str(obj(device.web_info).browser) || str(device.browser),
    os: str(device.operating_system),
    country_code: countryCodeOfName(str(obj(row.geo).country)),
  };
  if (url !== '') line.url = url;
  else if (name === 'page_view') line.url = '/';
  const session = params.get('ga_session_id');
  if (session !== undefined) line.session_id = `${visitor}.${session}`;
  // Campaign tags: collected_traffic_source (exports since mid-2023), else the event's own source/medium/campaign parameters.
  const tags: [string, string, string][] = [['utm_source', 'manual_source', 'source'], ['utm_medium', 'manual_medium', 'medium'], ['utm_campaign', 'manual_campaign_name', 'campaign']];
  for (const [field, collected, param] of tags) {
    const value = str(traffic[collected]) || (params.get(param) ?? '');
    if (value !== '' && value !== '(not set)' && value !== '(none)' && value !== '(direct)') line[field] = value;
  }
  if (name !== 'page_view') {
    line.name = name;
    const props: Json = {};
    for (const [key, value] of params) if (!GA4_OWN_PARAMETERS.has(key)) props[key] = value;
    if (Object.keys(props).length > 0) line.props = props;
  }
  return { event: line };
}
