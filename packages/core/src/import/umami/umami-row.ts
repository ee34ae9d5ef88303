/**
 * One Umami `website_event` row as one of our import lines (decisions.md section 8), or a row
 * left out on purpose and why, or the rule it breaks.
 */
import type { Lookup } from '../formats/lookup.js';

/** Where a row's fields are: the header's positions, and the side tables when the export has them. */
export interface UmamiColumns {
  index: Map<string, number>;
  /** `session.csv`: session_id -> [browser, os, device, country]. */
  sessions: Lookup | undefined;
  /** `event_data.csv`: event id -> [data_key, event_key, string_value, number_value, date_value, data_type] per property. */
  data: Lookup | undefined;
}

/** Umami's event types (src/lib/constants.ts EVENT_TYPE): 1 a pageview, 2 a custom event; links, pixels, performance and later ones are neither. */
const PAGEVIEW = '1';
const CUSTOM_EVENT = '2';

/** Umami's device classes as our device types: a laptop is a desktop computer. */
const DEVICES: Record<string, string> = { desktop: 'Desktop', laptop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet' };

/**
 * Umami's instant: `2026-03-01 10:00:00` (UTC, as its exports write it), ISO 8601, or with a
 * `+00` zone as PostgreSQL writes one.
 */
export function umamiInstant(text: string): string | undefined {
  let t = text.trim().replace(' ', 'T');
  if (/[+-]\d{2}$/.test(t)) t += ':00';
  else if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(t)) t += 'Z';
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

const CLICK_IDS = ['gclid', 'msclkid', 'fbclid'] as const;

/** The row as an import line's fields (`event`), or why it is left out (`skip`), or the rule it breaks (`reason`). */
export function umamiEvent(fields: readonly string[], columns: UmamiColumns, siteId: string): { event: Record<string, unknown> } | { skip: string } | { reason: string } {
  const get = (name: string): string => {
    const i = columns.index.get(name);
    return i === undefined ? '' : (fields[i] ?? '');
  };
  const type = get('event_type').trim();
  if (type !== PAGEVIEW && type !== CUSTOM_EVENT) return { skip: `event_type ${type || '(empty)'}: not a pageview (1) or a custom event (2)` };
  const ts = umamiInstant(get('created_at'));
  if (ts === undefined) return { reason: `created_at must be a date and time, got ${JSON.stringify(get('created_at').slice(0, 40))}` };
  const sessionId = get('session_id');
  if (sessionId === '') return { reason: 'session_id is required' };
  let search = get('url_query');
  // Click ids in columns of their own (newer Umami) go back into the query, where the channel rules read them.
  for (const id of CLICK_IDS) {
    const value = get(id);
    if (value !== '' && !new URLSearchParams(search).has(id)) search += `${search ? '&' : ''}${id}=${encodeURIComponent(value)}`;
  }
  const referrerDomain = get('referrer_domain');
  const referrerQuery = get('referrer_query');
  const line: Record<string, unknown> = {
    site_id: siteId,
    ts,
    type: type === PAGEVIEW ? 'pageview' : 'event',
    url: `${get('url_path') || '/'}${search ? `?${search}` : ''}`,
    visitor_id: sessionId,
    referrer: referrerDomain === '' ? '' : `https://${referrerDomain}${get('referrer_path')}${referrerQuery ? `?${referrerQuery}` : ''}`,
  };
  const visit = get('visit_id');
  if (visit !== '') line.session_id = visit;
  if (type === CUSTOM_EVENT) line.name = get('event_name');
  // UTM columns where the export has them (newer Umami); otherwise the URL's query gives them.
  for (const utm of ['utm_source', 'utm_medium', 'utm_campaign']) if (get(utm) !== '') line[utm] = get(utm);
  const joined = columns.sessions?.get(sessionId)[0];
  const [browser, os, device, country] = joined ?? [get('browser'), get('os'), get('device'), get('country')];
  line.device_type = DEVICES[(device ?? '').toLowerCase()] ?? 'Unknown';
  // Umami names iOS Safari `ios`; every other name gets our one spelling at enrichment.
  line.browser = browser === 'ios' ? 'Safari' : (browser ?? '');
  line.os = os ?? '';
  if (country && /^[A-Za-z]{2}$/.test(country)) line.country_code = country;
  if (type === CUSTOM_EVENT && columns.data) {
    const id = get('event_id');
    const props: Record<string, string> = {};
    for (const [dataKey, eventKey, text, number, date, dataType] of columns.data.get(id)) {
      const key = dataKey || eventKey || '';
      // data_type (Umami's DATA_TYPE): 1 string, 2 number, 3 boolean, 4 date, 5 array (written as text).
      const value = dataType === '2' ? String(Number(number)) : dataType === '4' ? (date ?? '') : (text ?? '');
      if (key !== '') props[key] = value;
    }
    if (Object.keys(props).length > 0) line.props = props;
  }
  return { event: line };
}
