/**
 * Response bodies of the ten read endpoints (read-api.md section 2 and 4).
 * The client SDK re-exports these types, so there is exactly one definition.
 */

/** `/stats`: the summary record, fields at top level. */
export interface Summary {
  visitors: number;
  pageviews: number;
  sessions: number;
  /** Percentage 0-100, one decimal place. */
  bounce_rate: number;
  /** Seconds, one decimal place. */
  avg_duration: number;
}

export interface TimeseriesRow {
  /** Local calendar day of the site, `YYYY-MM-DD`. */
  date: string;
  visitors: number;
  pageviews: number;
  sessions: number;
}

export interface PageRow {
  /** Path of the page, e.g. `/pricing`. */
  url: string;
  pageviews: number;
  visitors: number;
  bounce_rate: number;
  avg_duration: number;
}

export interface ReferrerRow {
  /** Referring host without `www.`, or `Direct / None`. */
  source: string;
  visitors: number;
  sessions: number;
}

export interface ChannelRow {
  channel: Channel;
  visitors: number;
  sessions: number;
}

export interface LocationRow {
  /** English short name, `Unknown` for `XX`. */
  country: string;
  /** ISO 3166-1 alpha-2, `XX` when unknown. */
  country_code: string;
  visitors: number;
}

export interface DeviceRow {
  name: string;
  visitors: number;
}

export interface EventRow {
  name: string;
  count: number;
}

export interface CampaignRow {
  source: string;
  medium: string;
  campaign: string;
  visitors: number;
  sessions: number;
}

export type Breakdown = 'device_type' | 'browser' | 'os';
export type Period = '30d' | '7d' | '1d';

/** The channels of decisions.md section 4. */
export const CHANNELS = [
  'Direct',
  'Organic Search',
  'Paid Search',
  'Social',
  'Paid Social',
  'Email',
  'Referral',
  'Display',
  'Affiliates',
  'AI Assistants',
] as const;
export type Channel = (typeof CHANNELS)[number];

export interface StatsResponse extends Summary {}
export interface TimeseriesResponse { timeseries: TimeseriesRow[] }
export interface PagesResponse { pages: PageRow[] }
export interface ReferrersResponse { referrers: ReferrerRow[] }
export interface ChannelsResponse { channels: ChannelRow[] }
export interface LocationsResponse { locations: LocationRow[] }
export interface DevicesResponse { breakdown: Breakdown; devices: DeviceRow[] }
export interface EventsResponse { events: EventRow[] }
export interface CampaignsResponse { campaigns: CampaignRow[] }
export interface LiveResponse { live: number }

/** Common query parameters accepted by every endpoint except `/live`. */
export interface DateParams {
  from?: string;
  to?: string;
  period?: Period;
}

/** Parameters of each endpoint, as sent on the wire. */
export interface EndpointParams {
  stats: { site_id: string } & DateParams;
  timeseries: { site_id: string } & DateParams;
  pages: { site_id: string; limit?: number } & DateParams;
  referrers: { site_id: string } & DateParams;
  channels: { site_id: string } & DateParams;
  locations: { site_id: string } & DateParams;
  devices: { site_id: string; breakdown?: Breakdown } & DateParams;
  events: { site_id: string; name?: string } & DateParams;
  campaigns: { site_id: string } & DateParams;
  live: { site_id: string };
}

/** Response body of each endpoint. */
export interface EndpointResponses {
  stats: StatsResponse;
  timeseries: TimeseriesResponse;
  pages: PagesResponse;
  referrers: ReferrersResponse;
  channels: ChannelsResponse;
  locations: LocationsResponse;
  devices: DevicesResponse;
  events: EventsResponse;
  campaigns: CampaignsResponse;
  live: LiveResponse;
}

export type EndpointName = keyof EndpointResponses;

/** Path of each endpoint below `/api/v1`. */
export const ENDPOINT_PATHS = {
  stats: '/stats',
  timeseries: '/stats/timeseries',
  pages: '/pages',
  referrers: '/referrers',
  channels: '/channels',
  locations: '/locations',
  devices: '/devices',
  events: '/events',
  campaigns: '/campaigns',
  live: '/live',
} as const satisfies Record<EndpointName, string>;

/** A tracked website. */
export interface Site {
  /** `ST-` followed by letters and digits. */
  id: string;
  name: string;
  /** IANA time zone; a "day" is a calendar day here. */
  timezone: string;
  /**
   * The site's own host (e.g. `example.com`, no `www.`), or `null`. Referrers
   * from it are self-referrals (`Direct / None`), and only pages on it (or its
   * subdomains) are collected.
   */
  domain: string | null;
  /** Owning Cloud account, `null` on Community installs. */
  accountId: string | null;
  /** Creation instant, ISO 8601. */
  createdAt: string;
}
