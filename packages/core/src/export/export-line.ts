import { classifyChannel } from '../derive/channel.js';
import { CLICK_ID_PARAMS } from '../derive/click-ids.js';
import { DIRECT_NONE } from '../derive/referrer.js';
import type { PropEntry, StoredEvent } from '../storage/types.js';

/**
 * A stored event as a line of the import format (decisions.md section 8) that imports back to
 * the same stored event (its `seq` aside, which only keeps the export's order): stored
 * visitor and session ids, path, the session's referrer source as a referrer URL
 * (`https://<source>/`, none for `Direct / None`), UTM fields, country, device, browser and OS,
 * and a custom event's `props` (stored values are strings, written as strings: they import
 * back to the same text; the entries in their stored order).
 *
 * The channel is not a field of the format: it is derived again on import from the referrer
 * and UTM fields, and from click ids of the URL, which are not stored. When the fields alone
 * derive another channel than the stored one, the URL gets the first click id, in the order
 * of derive/click-ids.ts, that derives it (`?gclid=export`, `?msclkid=export` from Bing,
 * `?fbclid=export`, `?ttclid=export`; a query never reaches the stored path). A channel no
 * click id reproduces (one stored under older rules) is derived anew.
 *
 * @example exportLine(stored) // {"site_id":"ST-a","ts":"2026-11-02T10:00:00.000Z","type":"pageview","url":"/", ...}
 */
export function exportLine(e: StoredEvent): string {
  const line: Record<string, string> = { site_id: e.siteId, ts: new Date(e.ts).toISOString(), type: e.type };
  if (e.type === 'event') line.name = e.name;
  if (e.path !== '') line.url = e.path + clickIdQuery(e);
  line.visitor_id = e.visitorId;
  line.session_id = e.sessionId;
  if (e.referrerSource !== DIRECT_NONE) line.referrer = `https://${e.referrerSource}/`;
  line.utm_source = e.utmSource;
  line.utm_medium = e.utmMedium;
  line.utm_campaign = e.utmCampaign;
  line.country_code = e.countryCode;
  line.device_type = e.deviceType;
  line.browser = e.browser;
  line.os = e.os;
  const text = JSON.stringify(line);
  return e.type === 'event' && e.props !== undefined && e.props.length > 0 ? `${text.slice(0, -1)},"props":${propsJson(e.props)}}` : text;
}

/** Written entry by entry: an object would move integer-like keys first and lose the stored order. */
function propsJson(props: readonly PropEntry[]): string {
  return `{${props.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}}`;
}

/** No click id first, then each one the channel rules read. */
const CLICK_IDS = [{}, ...CLICK_ID_PARAMS.map((param) => ({ [param]: 'export' }))];
/** Click-id query per (source, medium, referrer, channel): few distinct keys, so a small cache. */
const clickIdCache = new Map<string, string>();
const MAX_CACHED = 10_000;

function clickIdQuery(e: StoredEvent): string {
  const key = `${e.referrerSource}\u0000${e.utmSource}\u0000${e.utmMedium}\u0000${e.channel}`;
  let query = clickIdCache.get(key);
  if (query === undefined) {
    const referrerHost = e.referrerSource === DIRECT_NONE ? null : e.referrerSource;
    const ids = CLICK_IDS.find((clickIds) => classifyChannel({ referrerHost, utmSource: e.utmSource, utmMedium: e.utmMedium, clickIds }) === e.channel);
    const [name] = Object.keys(ids ?? {});
    query = name === undefined ? '' : `?${name}=export`;
    if (clickIdCache.size >= MAX_CACHED) clickIdCache.clear();
    clickIdCache.set(key, query);
  }
  return query;
}
