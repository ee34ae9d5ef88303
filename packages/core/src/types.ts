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
  /**
   * The bucket's label: the local day `YYYY-MM-DD` (`interval=day`), the hour
   * `YYYY-MM-DDTHH:00:00±HH:MM` (`hour`), the ISO week's Monday `YYYY-MM-DD` (`week`)
   * or `YYYY-MM` (`month`).
   */
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

/** `/properties` without `property`: one key carried by custom events of the name. */
export interface PropertyRow {
  property: string;
  /** Selected custom events of the name carrying the key, by their own day. */
  count: number;
  /** Daily distinct visitors among those events, summed over the days. */
  visitors: number;
}

/** `/properties` with `property`: one value of the key. */
export interface PropertyValueRow {
  value: string;
  count: number;
  visitors: number;
}

/** `/goals`: one goal of the site, zeros included. */
export interface GoalRow {
  /** The goal's display name: the event name, or `Visit ` and the page pattern. */
  goal: string;
  /** Daily distinct visitors of matching sessions starting that day that convert on the goal, summed. */
  visitors: number;
  /** Events meeting the goal in matching sessions, by their own day. */
  conversions: number;
  /** 100 x `visitors` / the `/stats` visitors of the same query, one decimal place. */
  conversion_rate: number;
}

/** `/funnels`: one step of the funnel, in funnel order, zeros included (funnels.md section 3). */
export interface FunnelStepRow {
  /** The step's display name: the event name, or `Visit ` and the page pattern. */
  step: string;
  /** Daily distinct visitors of counted sessions (matching, starting in the range) that reach this step, summed. */
  visitors: number;
  /** The previous step's visitors minus this step's (0 for step 1). */
  dropoff: number;
  /** 100 x `dropoff` / the previous step's visitors, one decimal place (0 for step 1, and when that is 0). */
  dropoff_rate: number;
  /** 100 x `visitors` / step 1's visitors, one decimal place (0 when that is 0). */
  conversion_rate: number;
  /** 100 x `visitors` / the previous step's visitors (step 1: 100, or 0 without visitors), one decimal place. */
  conversion_rate_step: number;
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

/**
 * `imported` of a body: present only when the site has imported daily totals (a Plausible
 * import) on days of the range (or the compared range) that count, days without native
 * events (docs/behaviour.md, "Imported data").
 */
export interface ImportedNote {
  /** Whether the numbers include the imported days. */
  included: boolean;
  /** Imported days of the main range that count (included or not). */
  days: number;
  /** Why they are left out, when they are. */
  reason?: string;
}

/** Every body but `/live`'s may carry `imported` (see `ImportedNote`). */
export interface WithImported {
  imported?: ImportedNote;
}

export interface StatsResponse extends Summary, WithImported {}
export interface TimeseriesResponse extends WithImported { timeseries: TimeseriesRow[] }
export interface PagesResponse extends WithImported { pages: PageRow[] }
export interface ReferrersResponse extends WithImported { referrers: ReferrerRow[] }
export interface ChannelsResponse extends WithImported { channels: ChannelRow[] }
export interface LocationsResponse extends WithImported { locations: LocationRow[] }
export interface DevicesResponse extends WithImported { breakdown: Breakdown; devices: DeviceRow[] }
export interface EventsResponse extends WithImported { events: EventRow[] }
export interface CampaignsResponse extends WithImported { campaigns: CampaignRow[] }
export interface LiveResponse { live: number }
/** `/properties` without `property`: the keys of the event's properties. */
export interface PropertyKeysResponse extends WithImported { name: string; properties: PropertyRow[] }
/** `/properties` with `property`: the values of one key. */
export interface PropertyValuesResponse extends WithImported { name: string; property: string; values: PropertyValueRow[] }
/** `/properties`: the keys (no `property` given) or the values of one key (tell them apart by `'values' in body`). */
export type PropertiesResponse = PropertyKeysResponse | PropertyValuesResponse;
export interface GoalsResponse extends WithImported { goals: GoalRow[] }
/**
 * `/funnels`: the funnel's name (`null` for ad-hoc `steps`), the `/stats` visitors of the same
 * parameters, and every step in funnel order.
 */
export interface FunnelsResponse extends WithImported { funnel: string | null; visitors: number; steps: FunnelStepRow[] }

/**
 * One step of a funnel (funnels.md section 1): a pageview whose path matches the pattern (a page
 * goal's: `*` matches any run of characters, the whole path must match), or a custom event of that name.
 */
export type FunnelStep = { readonly page: string } | { readonly event: string };

/** Common query parameters accepted by every endpoint except `/live`. */
export interface DateParams {
  from?: string;
  to?: string;
  period?: Period;
}

/** Filter operators of query-extensions.md section 1 (exact, case-sensitive, byte order). */
export const FILTER_OPERATORS = ['is', 'is_not', 'contains', 'contains_not'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/**
 * Dimensions a filter condition can read by a fixed name: the session's attributes, a pageview's path, a custom
 * event's name, and the goals a session converts on (properties-goals.md section 4). A custom event's property
 * is `prop:<key>` (`PropDimension`).
 */
export const FILTER_DIMENSIONS = [
  'entry_page',
  'source',
  'channel',
  'country',
  'device_type',
  'browser',
  'os',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'page',
  'event',
  'goal',
] as const;
/** `prop:` and a property key of 1 to 300 characters: the value of that property on a custom event (`''` without it). */
export type PropDimension = `prop:${string}`;
export type FilterDimension = (typeof FILTER_DIMENSIONS)[number] | PropDimension;

/**
 * One filter condition, `[operator, dimension, values]`: e.g. `['is', 'country', ['DE', 'AT']]`.
 * A query's `filters` is a list of them, all of which must hold.
 */
export type FilterCondition = readonly [operator: FilterOperator, dimension: FilterDimension, values: readonly string[]];

/** `compare`: the range of the same length just before, or the same dates one year earlier. */
export const COMPARE_MODES = ['previous_period', 'year_over_year'] as const;
export type Compare = (typeof COMPARE_MODES)[number];

/** `interval` of `/stats/timeseries`. */
export const INTERVALS = ['day', 'hour', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

/** `imported`: `include` (default) counts imported daily totals where they apply; `exclude` leaves them out. */
export const IMPORTED_MODES = ['include', 'exclude'] as const;
export type ImportedMode = (typeof IMPORTED_MODES)[number];

/** `filters`, `compare` and `imported`: accepted by every endpoint except `/live` (query-extensions.md). */
export interface ExtensionParams {
  /** `exclude` leaves imported daily totals out (docs/behaviour.md, "Imported data"). */
  imported?: ImportedMode;
  /** Conditions that must all hold; the SDK encodes them as the JSON text the API reads. */
  filters?: readonly FilterCondition[];
  /** Adds `comparison` to the response, computed over the compared range. */
  compare?: Compare;
}

/** Parameters of each endpoint, as sent on the wire. */
export interface EndpointParams {
  stats: { site_id: string } & DateParams & ExtensionParams;
  /** `interval`: `day` (default), `hour` (ranges of at most 7 days), `week` or `month`. */
  timeseries: { site_id: string; interval?: Interval } & DateParams & ExtensionParams;
  pages: { site_id: string; limit?: number } & DateParams & ExtensionParams;
  referrers: { site_id: string } & DateParams & ExtensionParams;
  channels: { site_id: string } & DateParams & ExtensionParams;
  locations: { site_id: string } & DateParams & ExtensionParams;
  devices: { site_id: string; breakdown?: Breakdown } & DateParams & ExtensionParams;
  events: { site_id: string; name?: string } & DateParams & ExtensionParams;
  campaigns: { site_id: string } & DateParams & ExtensionParams;
  live: { site_id: string };
  /** `name` (required): the custom event; `property`: one key, whose values are listed; `limit` 1-100, default 20. */
  properties: { site_id: string; name: string; property?: string; limit?: number } & DateParams & ExtensionParams;
  goals: { site_id: string } & DateParams & ExtensionParams;
  /** Exactly one of `funnel` (a funnel saved for the site) and `steps` (2 to 8 steps; the SDK encodes them as the JSON text the API reads). */
  funnels: { site_id: string } & ({ funnel: string; steps?: undefined } | { steps: readonly FunnelStep[]; funnel?: undefined }) & DateParams & ExtensionParams;
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
  properties: PropertiesResponse;
  goals: GoalsResponse;
  funnels: FunnelsResponse;
}

export type EndpointName = keyof EndpointResponses;

/** A list row with `comparison`: its metric fields (not its name fields) over the compared range. */
export type Compared<Row, NameFields extends keyof Row> = Row & { comparison: Omit<Row, NameFields> };

/** `/stats` `comparison`: the compared range and its summary. */
export interface SummaryComparison extends Summary {
  /** First day of the compared range, `YYYY-MM-DD`. */
  from: string;
  /** Last day of the compared range, `YYYY-MM-DD`. */
  to: string;
}

export interface ComparedStatsResponse extends StatsResponse { comparison: SummaryComparison }
/** `comparison`: the compared range's rows, same interval, in order (the count may differ, see the spec). */
export interface ComparedTimeseriesResponse extends WithImported { timeseries: TimeseriesRow[]; comparison: TimeseriesRow[] }
export interface ComparedPagesResponse extends WithImported { pages: Compared<PageRow, 'url'>[] }
export interface ComparedReferrersResponse extends WithImported { referrers: Compared<ReferrerRow, 'source'>[] }
export interface ComparedChannelsResponse extends WithImported { channels: Compared<ChannelRow, 'channel'>[] }
export interface ComparedLocationsResponse extends WithImported { locations: Compared<LocationRow, 'country' | 'country_code'>[] }
export interface ComparedDevicesResponse extends WithImported { breakdown: Breakdown; devices: Compared<DeviceRow, 'name'>[] }
export interface ComparedEventsResponse extends WithImported { events: Compared<EventRow, 'name'>[] }
export interface ComparedCampaignsResponse extends WithImported { campaigns: Compared<CampaignRow, 'source' | 'medium' | 'campaign'>[] }
export interface ComparedPropertyKeysResponse extends WithImported { name: string; properties: Compared<PropertyRow, 'property'>[] }
export interface ComparedPropertyValuesResponse extends WithImported { name: string; property: string; values: Compared<PropertyValueRow, 'value'>[] }
export type ComparedPropertiesResponse = ComparedPropertyKeysResponse | ComparedPropertyValuesResponse;
export interface ComparedGoalsResponse extends WithImported { goals: Compared<GoalRow, 'goal'>[] }
/** `/funnels` `comparison`: the compared range and its `/stats` visitors. */
export interface FunnelComparison {
  from: string;
  to: string;
  visitors: number;
}
export interface ComparedFunnelsResponse extends WithImported { funnel: string | null; visitors: number; steps: Compared<FunnelStepRow, 'step'>[]; comparison: FunnelComparison }

/** Response body of each endpoint when `compare` is given (`/live` takes no `compare`). */
export interface ComparedEndpointResponses {
  stats: ComparedStatsResponse;
  timeseries: ComparedTimeseriesResponse;
  pages: ComparedPagesResponse;
  referrers: ComparedReferrersResponse;
  channels: ComparedChannelsResponse;
  locations: ComparedLocationsResponse;
  devices: ComparedDevicesResponse;
  events: ComparedEventsResponse;
  campaigns: ComparedCampaignsResponse;
  properties: ComparedPropertiesResponse;
  goals: ComparedGoalsResponse;
  funnels: ComparedFunnelsResponse;
}

/** Endpoints that take `filters` and `compare`: all but `/live`. */
export type ComparableEndpoint = keyof ComparedEndpointResponses;

/**
 * The body a request gets: with `comparison` exactly when its parameters give `compare`;
 * either shape when that is not known from the type.
 */
export type ResponseFor<E extends EndpointName, P> = E extends ComparableEndpoint
  ? P extends { compare: Compare }
    ? ComparedEndpointResponses[E]
    : P extends { compare?: undefined }
      ? EndpointResponses[E]
      : EndpointResponses[E] | ComparedEndpointResponses[E]
  : EndpointResponses[E];

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
  properties: '/properties',
  goals: '/goals',
  funnels: '/funnels',
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
