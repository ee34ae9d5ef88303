import { classifyChannel } from '../derive/channel.js';
import { browserName, osName } from '../derive/device-names.js';
import { lookupCountry, normalizeCountryCode } from '../derive/geo.js';
import { referrerHost, referrerSource, DIRECT_NONE } from '../derive/referrer.js';
import { parsePageUrl } from '../derive/url.js';
import { parseUserAgent } from '../derive/user-agent.js';
import type { PropEntry, StoredEvent } from '../storage/types.js';
import { localDay } from '../time/zone.js';
import type { Site } from '../types.js';
import { deriveVisitorId } from './visitor.js';

/** One event as it arrives from an import line or the collector, before derivation. */
export interface IncomingEvent {
  ts: number;
  type: 'pageview' | 'event';
  name?: string | undefined;
  url?: string | undefined;
  referrer?: string | undefined;
  visitor_id?: string | undefined;
  session_id?: string | undefined;
  utm_source?: string | undefined;
  utm_medium?: string | undefined;
  utm_campaign?: string | undefined;
  country_code?: string | undefined;
  device_type?: string | undefined;
  browser?: string | undefined;
  os?: string | undefined;
  ip?: string | undefined;
  user_agent?: string | undefined;
  /** A custom event's properties, already read by `parseProps`; ignored for pageviews. */
  props?: readonly PropEntry[] | undefined;
}

/** An event with every derivation done except its session. */
export type EnrichedEvent = Omit<StoredEvent, 'sessionId' | 'entryPath'> & { sessionId: string | undefined };

/**
 * The derivations of decisions.md section 8, shared by import and collection:
 * path and campaign parameters from the URL, the daily visitor id, referrer
 * source (self-referrals are `Direct / None`), channel, device, browser, OS
 * and country. Browser and OS names, derived or given, get one spelling each
 * (`derive/device-names.ts`). `salt` keys the visitor id of the event's day.
 */
export function enrichEvent(site: Site, event: IncomingEvent, salt: (day: string) => string, seq: number): EnrichedEvent {
  const day = localDay(event.ts, site.timezone);
  const page = parsePageUrl(event.url ?? '');
  const ownHosts = page.host ? [site.domain ?? '', page.host] : [site.domain ?? ''];
  const source = referrerSource(event.referrer ?? '', ownHosts);
  const utmSource = event.utm_source ?? page.params.utm_source ?? '';
  const utmMedium = event.utm_medium ?? page.params.utm_medium ?? '';
  const ua = event.user_agent ?? '';
  const device = event.device_type && event.browser && event.os ? undefined : parseUserAgent(ua);
  const enriched: EnrichedEvent = {
    siteId: site.id,
    ts: event.ts,
    day,
    type: event.type,
    name: event.type === 'event' ? (event.name ?? '') : '',
    path: event.url === undefined ? '' : page.path,
    visitorId: event.visitor_id ?? deriveVisitorId(salt(day), site.id, event.ip ?? '', ua),
    sessionId: event.session_id,
    seq,
    referrerSource: source,
    channel: classifyChannel({
      referrerHost: source === DIRECT_NONE ? null : referrerHost(event.referrer ?? ''),
      utmSource,
      utmMedium,
      clickIds: page.params,
    }),
    utmSource,
    utmMedium,
    utmCampaign: event.utm_campaign ?? page.params.utm_campaign ?? '',
    countryCode: event.country_code ? normalizeCountryCode(event.country_code) : event.ip ? lookupCountry(event.ip) : 'XX',
    deviceType: event.device_type ?? device!.deviceType,
    // Names given by an import line get the same one spelling as derived names (`android` is `Android`).
    browser: event.browser === undefined ? device!.browser : browserName(event.browser),
    os: event.os === undefined ? device!.os : osName(event.os),
  };
  // Pageviews carry no properties in this version (properties-goals.md section 1): theirs are ignored.
  if (event.type === 'event' && event.props !== undefined && event.props.length > 0) enriched.props = event.props;
  return enriched;
}
